/// Consistency when the projector is slow, stopped or halted, with real faults: a stopped projector
/// (`projector.stop()`), a second `--role api` instance on the same PostgreSQL, and a poison event
/// in the real log. Revocations hold at once on both instances; commands whose effect cannot be
/// shown answer 503 READ_MODELS_BEHIND within one bound per request; /ready and /metrics tell why.

import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Tessera } from '../../app/server/tessera.js'
import { START } from '../../infra/event-store/event-store.js'
import { devicesFor } from '../support/browser.js'
import { startApiInstance, startTessera, type TestTessera } from '../support/tessera.js'

const SECRET = 'consistency-test-secret-0123456789abcdef'
const PASSWORD = 'correct horse battery'
// Generous against a loaded machine: the checks compare one bound with several, not speeds.
const BOUND_MS = 1500
const BEHIND = { code: 'READ_MODELS_BEHIND', message: 'The service is catching up. Try again in a moment.' }
const env = {
  AUTH_SECRET: SECRET,
  READ_YOUR_WRITES_TIMEOUT_MS: String(BOUND_MS),
  PROJECTOR_MAX_ATTEMPTS: '2',
}

/** A request to any instance, as a browser holding `cookie` would send it. */
const call = async (
  tessera: Tessera,
  method: 'GET' | 'POST',
  path: string,
  cookie: string,
  body?: object,
) => {
  const app = tessera.app
  if (!app) throw new Error('no app')
  const response = await app.inject({
    method,
    url: `/api/auth${path}`,
    headers: {
      cookie,
      origin: tessera.ctx.config.baseOrigin,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  })
  return { status: response.statusCode, json: response.body ? (JSON.parse(response.body) as unknown) : null }
}

const timed = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
  const started = Date.now()
  const result = await run()
  return [result, Date.now() - started]
}

describe('consistency with a stopped projector, two instances on one PostgreSQL', () => {
  let main: TestTessera
  let api: Tessera
  beforeEach(async () => {
    main = await startTessera({ kind: 'postgres', env })
    api = await startApiInstance(main, env)
  })
  afterEach(async () => {
    await api.close()
    await main.cleanup()
  })

  const { signedUp, signedIn } = devicesFor(() => main, PASSWORD)
  const sessionOf = async (tessera: Tessera, cookie: string) =>
    (await call(tessera, 'GET', '/get-session', cookie)).json

  it('a sign-out while the projector is stopped is refused at once on both instances, and answers 503', async () => {
    const laptop = await signedUp()
    const phone = await signedIn()
    const [laptopCookie, phoneCookie] = [laptop.jar.header() ?? '', phone.jar.header() ?? '']
    // Both instances know both sessions (the api instance has no cache: it reads the database).
    expect(await sessionOf(api, laptopCookie)).toMatchObject({ user: { email: 'ada@example.com' } })
    expect(await sessionOf(main, laptopCookie)).toMatchObject({ user: { email: 'ada@example.com' } })

    await main.projector.stop()
    const [signOut, took] = await timed(() => call(main, 'POST', '/sign-out', laptopCookie, {}))
    expect(signOut).toEqual({ status: 503, json: BEHIND })
    expect(took).toBeLessThan(BOUND_MS * 3)
    // Refused at once, here (whose cache held it) and on the other instance.
    expect(await sessionOf(main, laptopCookie)).toBeNull()
    expect(await sessionOf(api, laptopCookie)).toBeNull()
    // Only that session ended.
    expect(await sessionOf(main, phoneCookie)).toMatchObject({ user: { email: 'ada@example.com' } })

    // A revocation made on the api instance holds on the main one too.
    expect((await call(api, 'POST', '/sign-out', phoneCookie, {})).status).toBe(503)
    expect(await sessionOf(main, phoneCookie)).toBeNull()
    expect(await sessionOf(api, phoneCookie)).toBeNull()

    // The projector catches up: the revocations reach the read model, the pending rows go.
    await main.projector.start()
    await main.projector.catchUp()
    expect(await main.ctx.db.selectFrom('sessions').select('id').execute()).toEqual([])
    const ready = await call(main, 'GET', '/ready', '')
    expect(ready).toMatchObject({ status: 200, json: { ready: true, lag: { pendingRevocations: 0 } } })
  })

  it('a sign-up whose read models cannot catch up answers 503, never 422, and the user exists', async () => {
    await main.projector.stop()
    const [answer, took] = await timed(() =>
      call(main, 'POST', '/sign-up/email', '', { name: 'Bo', email: 'bo@example.com', password: PASSWORD }),
    )
    expect(answer).toEqual({ status: 503, json: BEHIND })
    expect(took).toBeLessThan(BOUND_MS * 3)
    const ready = await call(main, 'GET', '/ready', '')
    expect(ready.status).toBe(503)
    expect((ready.json as { reasons: string[] }).reasons).toContain(
      'the projector of this process is stopped',
    )
    await main.projector.start()
    // Retrying is safe: the user was created once.
    const again = await call(main, 'POST', '/sign-up/email', '', {
      name: 'Bo',
      email: 'bo@example.com',
      password: PASSWORD,
    })
    expect(again.status).toBe(422)
    expect(
      (await main.store.readAll(START, 1000)).filter((event) => event.type === 'user.registered'),
    ).toHaveLength(1)
  })

  it('the bound is per request: revoking N sessions takes one bound, not N', async () => {
    const devices = [await signedUp(), await signedIn(), await signedIn(), await signedIn(), await signedIn()]
    const cookies = devices.map((device) => device.jar.header() ?? '')
    await main.projector.stop()
    const [answer, took] = await timed(() => call(main, 'POST', '/revoke-sessions', cookies[0] ?? '', {}))
    expect(answer).toEqual({ status: 503, json: BEHIND })
    // Five commands: a bound per command would be at least 5 bounds.
    expect(took).toBeLessThan(BOUND_MS * 3.5)
    for (const cookie of cookies) {
      expect(await sessionOf(main, cookie)).toBeNull()
      expect(await sessionOf(api, cookie)).toBeNull()
    }
  })
})

describe('a poison event in the real log', () => {
  let main: TestTessera
  beforeEach(async () => {
    main = await startTessera({ kind: 'pglite', env })
  })
  afterEach(() => main.cleanup())

  it('halts the projector loudly: /ready and /metrics say so, commands answer 503, a skip lets it go on', async () => {
    const { signedUp } = devicesFor(() => main, PASSWORD)
    const ada = await signedUp()
    const session = (await ada.session()) as { user: { id: string } }
    // A second registration of the same user id on another stream: the users projection cannot
    // insert it (primary key), however often it tries.
    const [registered] = (await main.store.readAll(START, 100)).filter((e) => e.type === 'user.registered')
    if (!registered) throw new Error('no registration')
    const poison = await main.store.appendToStream(
      `user-${randomUUID()}`,
      [{ ...registered, id: randomUUID(), data: { ...registered.data, userId: session.user.id } }],
      { expectedVersion: 'no_stream' },
    )
    const deadline = Date.now() + 10_000
    while (main.projector.status().state !== 'halted' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(main.projector.status().fault).toMatchObject({ position: poison.position, projection: 'users' })

    const ready = await call(main, 'GET', '/ready', '')
    expect(ready.status).toBe(503)
    expect((ready.json as { reasons: string[] }).reasons[0]).toMatch(
      new RegExp(`^halted: projection users cannot apply event ${poison.position.tx}:${poison.position.seq}`),
    )
    const metrics = await main.app?.inject({ method: 'GET', url: '/api/auth/metrics' })
    expect(metrics?.body).toMatch(/^tessera_projector_halted\{group="read-models"\} 1$/m)
    expect(metrics?.body).toMatch(/^tessera_projector_lag_events\{group="read-models"\} 1$/m)
    // The process's own figures come with them.
    expect(metrics?.body).toMatch(/^tessera_event_loop_delay_seconds_count [1-9]\d*$/m)
    expect(metrics?.body).toMatch(/^nodejs_gc_duration_seconds_bucket\{kind="minor",le="\+Inf"\} \d+$/m)

    // Commands answer 503 at once (the projector is known to be halted), not a silent 200.
    const [signUp, took] = await timed(() =>
      call(main, 'POST', '/sign-up/email', '', { name: 'Cy', email: 'cy@example.com', password: PASSWORD }),
    )
    expect(signUp).toEqual({ status: 503, json: BEHIND })
    expect(took).toBeLessThan(BOUND_MS)
    // Revocations still hold.
    const cookie = ada.jar.header() ?? ''
    expect((await call(main, 'POST', '/sign-out', cookie, {})).status).toBe(503)
    expect(await (await import('../support/browser.js')).browserFor(main).session()).toBeNull()
    expect((await call(main, 'GET', '/get-session', cookie)).json).toBeNull()

    // The operator skips it (as `tessera projections skip` does); the projector goes on by itself.
    const { skipFaultyEvent } = await import('../../projections/runner/projector-faults.js')
    await skipFaultyEvent(main.ctx.db, 'read-models', poison.position)
    const caughtUp = Date.now() + 10_000
    while ((await call(main, 'GET', '/ready', '')).status !== 200 && Date.now() < caughtUp)
      await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await call(main, 'GET', '/ready', '')).status).toBe(200)
    expect(await main.ctx.db.selectFrom('users').select('email').orderBy('email').execute()).toEqual([
      { email: 'ada@example.com' },
      { email: 'cy@example.com' },
    ])
  })
})
