/// What the activity feed says about devices: a revocation names the device that was signed out
/// (beside the entry's own device, the one that did it), and a wrong password on an account shows
/// up as `user.sign-in-failed` with where the attempt came from, at most once a minute.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { userStream } from '../../domain/user/user.js'
import { cookieJar } from '../support/cookies.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'

type Item = {
  type: string
  ip: string | null
  userAgent: string | null
  details: Record<string, unknown>
}

describe('activity: devices and failed sign-ins', () => {
  let tessera: TestTessera
  let now = Date.now()
  beforeEach(async () => {
    now = Date.now()
    tessera = await startTessera({ clock: () => new Date(now) })
  })
  afterEach(() => tessera.cleanup())

  /** A device: its own cookies and user agent. */
  const device = (userAgent: string) => {
    const jar = cookieJar()
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const cookie = jar.header()
      const headers = { 'user-agent': userAgent, ...(cookie ? { cookie } : {}) }
      const response = await tessera.api.request(method, path, body, headers)
      jar.store(response.headers['set-cookie'])
      return response
    }
    const items = async () => ((await call('GET', '/activity')).json as { items: Item[] }).items
    const sessionId = async () =>
      ((await call('GET', '/get-session')).json as { session: { id: string } }).session.id
    return { call, items, sessionId }
  }

  const signedUp = async (userAgent: string, extra: object = {}) => {
    const d = device(userAgent)
    const response = await d.call('POST', '/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: PASSWORD,
      ...extra,
    })
    expect(response.status).toBe(200)
    return { ...d, userId: (response.json as { user: { id: string } }).user.id }
  }

  const signedIn = async (userAgent: string) => {
    const d = device(userAgent)
    const response = await d.call('POST', '/sign-in/email', { email: 'ada@example.com', password: PASSWORD })
    expect(response.status).toBe(200)
    return d
  }

  /** The user's event types in their stream, from the log. */
  const streamTypes = async (userId: string) =>
    (await tessera.store.readStream(userStream(userId))).map((event) => event.type)

  /** The attempt is recorded after the answer: wait until the feed shows `count` of them. */
  const failuresShown = async (d: ReturnType<typeof device> & { userId: string }, count: number) => {
    const shown = async () => (await d.items()).filter((item) => item.type === 'user.sign-in-failed').length
    await expect.poll(shown, { timeout: 10_000 }).toBe(count)
    expect((await streamTypes(d.userId)).filter((type) => type === 'user.sign-in-failed')).toHaveLength(count)
  }

  it("names the signed-out device in a revocation's details, and the one that did it on the entry", async () => {
    const laptop = await signedUp('Laptop UA')
    const phone = await signedIn('Phone UA')
    const tablet = await signedIn('Tablet UA')
    const phoneSession = await phone.sessionId()
    const tabletSession = await tablet.sessionId()
    expect((await laptop.call('POST', '/revoke-session', { token: phoneSession })).status).toBe(200)
    expect((await tablet.call('POST', '/sign-out')).status).toBe(200)

    const [signedOut, revoked] = await laptop.items()
    expect(revoked).toEqual({
      ...revoked,
      type: 'session.revoked',
      userAgent: 'Laptop UA',
      details: { sessionId: phoneSession, reason: 'revoked', userAgent: 'Phone UA', ip: '127.0.0.1' },
    })
    expect(signedOut).toMatchObject({
      type: 'user.signed-out',
      userAgent: 'Tablet UA',
      details: { sessionId: tabletSession, reason: 'sign-out', userAgent: 'Tablet UA', ip: '127.0.0.1' },
    })
  })

  it('names each device that "sign out everywhere else" ended', async () => {
    const laptop = await signedUp('Laptop UA')
    await signedIn('Phone UA')
    await signedIn('Tablet UA')
    expect((await laptop.call('POST', '/revoke-other-sessions')).status).toBe(200)
    const revoked = (await laptop.items()).filter((item) => item.type === 'session.revoked')
    expect(revoked.map((item) => item.details.userAgent).sort()).toEqual(['Phone UA', 'Tablet UA'])
    expect(revoked.every((item) => item.userAgent === 'Laptop UA')).toBe(true)
  })

  it('records a wrong password once a minute, with where it came from, after the same 401', async () => {
    const laptop = await signedUp('Laptop UA')
    const stranger = device('Stranger UA')
    const wrong = { email: 'ada@example.com', password: 'not the password' }
    const refused = await stranger.call('POST', '/sign-in/email', wrong)
    const unknown = await stranger.call('POST', '/sign-in/email', { ...wrong, email: 'nobody@example.com' })
    expect(refused.status).toBe(401)
    expect(refused.json).toEqual(unknown.json)
    await failuresShown(laptop, 1)

    const [failed] = await laptop.items()
    expect(failed).toEqual({
      ...failed,
      type: 'user.sign-in-failed',
      ip: '127.0.0.1',
      userAgent: 'Stranger UA',
      details: {},
    })

    // More guesses within the minute add nothing; the next minute's first one does.
    now += 30_000
    expect((await stranger.call('POST', '/sign-in/email', wrong)).status).toBe(401)
    now += 31_000
    expect((await stranger.call('POST', '/sign-in/email', wrong)).status).toBe(401)
    await failuresShown(laptop, 2)
    const types = (await laptop.items()).map((item) => item.type)
    expect(types.filter((type) => type === 'user.sign-in-failed')).toHaveLength(2)

    // The password tried is nowhere in the log, sealed or not.
    const events = await tessera.store.readStream(userStream(laptop.userId))
    const text = JSON.stringify(events.map(({ data, metadata }) => ({ data, metadata })))
    expect(text).not.toContain('not the password')
    const failure = events.find((event) => event.type === 'user.sign-in-failed')
    expect(Object.keys(failure?.data ?? {}).sort()).toEqual(['failedAt', 'userId'])
  })

  it('records a wrong password given with the username too, and nothing for a right one', async () => {
    const laptop = await signedUp('Laptop UA', { username: 'ada_l' })
    const ok = await device('Phone UA').call('POST', '/sign-in/username', {
      username: 'ada_l',
      password: PASSWORD,
    })
    expect(ok.status).toBe(200)
    const refused = await device('Stranger UA').call('POST', '/sign-in/username', {
      username: 'ada_l',
      password: 'guess',
    })
    expect(refused.status).toBe(401)
    expect(refused.json).toMatchObject({ code: 'INVALID_USERNAME_OR_PASSWORD' })
    await failuresShown(laptop, 1)
    expect((await laptop.items())[0]).toMatchObject({ type: 'user.sign-in-failed', userAgent: 'Stranger UA' })
  })
})
