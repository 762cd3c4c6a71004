/// list-sessions is answered from memory in a process that projects (query-api/sessions/
/// list-sessions.ts). What changes the list shows at once all the same, with two instances on one
/// PostgreSQL (the second a `--role api` process): a session started on either, a revocation made
/// on either, and, with the caching instance's projector stopped, a sign-out committed elsewhere.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Tessera } from '../../app/server/tessera.js'
import { cookieJar } from '../support/cookies.js'
import { startApiInstance, startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const env = {
  AUTH_SECRET: 'list-sessions-cache-secret-0123456789abcdef',
  // Generous against a loaded machine; only the 503 of a stopped projector waits for it.
  READ_YOUR_WRITES_TIMEOUT_MS: '1500',
}

type Listed = { id: string; userAgent: string | null }

describe('list-sessions from the cache, two instances on one PostgreSQL', () => {
  let main: TestTessera
  let api: Tessera
  beforeEach(async () => {
    main = await startTessera({ kind: 'postgres', env })
    api = await startApiInstance(main, env)
  }, 240_000)
  afterEach(async () => {
    await api?.close()
    await main?.cleanup()
  })

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
        'user-agent': `device-${path}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    })
    return {
      status: response.statusCode,
      json: response.body ? (JSON.parse(response.body) as unknown) : null,
      response,
    }
  }

  /** A device that signs up or in on `tessera`: its cookie and its session's id. */
  const enter = async (tessera: Tessera, path: '/sign-up/email' | '/sign-in/email') => {
    const credentials = { email: 'ada@example.com', password: PASSWORD }
    const body = path === '/sign-up/email' ? { name: 'Ada', ...credentials } : credentials
    const answer = await call(tessera, 'POST', path, '', body)
    expect(answer.status).toBe(200)
    const jar = cookieJar()
    jar.store(answer.response.headers['set-cookie'])
    const cookie = jar.header()
    const session = (await call(tessera, 'GET', '/get-session', cookie)).json as { session: { id: string } }
    return { cookie, id: session.session.id }
  }

  const listedOn = async (tessera: Tessera, cookie: string) => {
    const answer = await call(tessera, 'GET', '/list-sessions', cookie)
    expect(answer.status).toBe(200)
    return (answer.json as Listed[]).map((session) => session.id).sort()
  }

  it('is served from memory where the projector runs, and not elsewhere', async () => {
    const laptop = await enter(main, '/sign-up/email')
    expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id])
    // A change no event made (only a test can make one) shows where nothing is cached...
    await main.ctx.db.updateTable('sessions').set({ user_agent: 'edited' }).execute()
    const agentOn = async (tessera: Tessera) =>
      ((await call(tessera, 'GET', '/list-sessions', laptop.cookie)).json as Listed[]).find(
        (session) => session.id === laptop.id,
      )?.userAgent
    expect(await agentOn(api)).toBe('edited')
    // ...and not where the list is held, until an event about the user's sessions evicts it.
    expect(await agentOn(main)).toBe('device-/sign-up/email')
    await enter(api, '/sign-in/email')
    expect(await agentOn(main)).toBe('edited')
  })

  it('shows a new session, a revocation and a sign-out made on either instance at once', async () => {
    const laptop = await enter(main, '/sign-up/email')
    expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id])

    // Sessions started on the other instance, then on this one.
    const phone = await enter(api, '/sign-in/email')
    expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id, phone.id].sort())
    const tablet = await enter(main, '/sign-in/email')
    expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id, phone.id, tablet.id].sort())
    expect(await listedOn(api, laptop.cookie)).toEqual([laptop.id, phone.id, tablet.id].sort())

    // A revocation on the other instance, then on this one.
    const revoked = await call(api, 'POST', '/revoke-session', laptop.cookie, { token: tablet.id })
    expect(revoked).toMatchObject({ status: 200, json: { status: true } })
    expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id, phone.id].sort())
    expect((await call(main, 'POST', '/sign-out', phone.cookie, {})).status).toBe(200)
    expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id])

    // A sign-out on the other instance.
    const desktop = await enter(main, '/sign-in/email')
    expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id, desktop.id].sort())
    expect((await call(api, 'POST', '/sign-out', desktop.cookie, {})).status).toBe(200)
    expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id])
  })

  it('drops a session signed out on either instance at once while the projector is stopped', async () => {
    const laptop = await enter(main, '/sign-up/email')
    const phone = await enter(main, '/sign-in/email')
    const tablet = await enter(api, '/sign-in/email')
    // Held in memory by the instance that projects.
    expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id, phone.id, tablet.id].sort())

    await main.projector.stop()
    try {
      // Committed, but no projector can show it: 503, and the revocation holds everywhere.
      expect((await call(api, 'POST', '/sign-out', phone.cookie, {})).status).toBe(503)
      expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id, tablet.id].sort())
      expect(await listedOn(api, laptop.cookie)).toEqual([laptop.id, tablet.id].sort())
      expect((await call(main, 'POST', '/sign-out', tablet.cookie, {})).status).toBe(503)
      expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id])
      expect(await listedOn(api, laptop.cookie)).toEqual([laptop.id])
    } finally {
      await main.projector.start()
    }
    await main.projector.catchUp()
    expect(await listedOn(main, laptop.cookie)).toEqual([laptop.id])
  })
})
