/// Multi-session over HTTP (better-auth's `multiSession` plugin): a per-session cookie for each
/// account signed in on a device (at most five), listing them, switching the active one, revoking
/// one (the active one moves on), 401 INVALID_SESSION_TOKEN for tokens the device does not hold or
/// that are no longer valid, and sign-out ending every session of the device.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { START } from '../../infra/event-store/event-store.js'
import { type Browser, browserFor, type SessionAnswer } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const COOKIE = 'better-auth.session_token'
const T0 = Date.parse('2030-01-15T10:00:00.000Z')
const DAY = 86_400_000

const multiCookie = (token: string) => `${COOKIE}_multi-${token.toLowerCase()}`

type DeviceSession = { session: { token: string; userId: string }; user: { id: string; email: string } }

describe('multi-session (pglite)', () => {
  let tessera: TestTessera
  let now = T0
  beforeEach(async () => {
    now = T0
    tessera = await startTessera({ clock: () => new Date(now) })
  })
  afterEach(() => tessera.cleanup())

  /** Signs an account up (or in, when it exists) on a device; the session's token. */
  const enter = async (device: Browser, name: string, extra: Record<string, unknown> = {}) => {
    const email = `${name}@example.com`
    let response = await device.post('/sign-up/email', { name, email, password: PASSWORD, ...extra })
    if (response.status === 422)
      response = await device.post('/sign-in/email', { email, password: PASSWORD, ...extra })
    expect(response.status).toBe(200)
    return (response.json as { token: string }).token
  }

  const listed = async (device: Browser) => {
    const response = await device.get('/multi-session/list-device-sessions')
    expect(response.status).toBe(200)
    return response.json as DeviceSession[]
  }
  const emails = async (device: Browser) => (await listed(device)).map((entry) => entry.user.email).sort()
  const activeEmail = async (device: Browser) =>
    ((await device.get('/get-session')).json as (SessionAnswer & { user: { email: string } }) | null)?.user
      .email ?? null
  /** Whether a token still opens a session anywhere (as a bearer token, no cookies). */
  const works = async (token: string) =>
    (await tessera.api.request('GET', '/get-session', undefined, { authorization: `Bearer ${token}` }))
      .json !== null

  it('keeps a cookie per account, lists them, and switches the active one', async () => {
    const laptop = browserFor(tessera)
    const ada = await enter(laptop, 'ada')
    const bob = await enter(laptop, 'bob')
    expect(laptop.jar.get(multiCookie(ada))).toBeDefined()
    expect(laptop.jar.get(multiCookie(bob))).toBeDefined()
    expect(laptop.jar.attributesOf(multiCookie(ada))).toMatch(/HttpOnly/i)
    expect(laptop.jar.attributesOf(multiCookie(ada))).toMatch(/Max-Age=604800/i)

    const sessions = await listed(laptop)
    expect(sessions.map((entry) => [entry.user.email, entry.session.token]).sort()).toEqual([
      ['ada@example.com', ada],
      ['bob@example.com', bob],
    ])
    for (const entry of sessions) expect(entry.session.userId).toBe(entry.user.id)
    expect(await activeEmail(laptop)).toBe('bob@example.com')

    const eventsBefore = (await tessera.store.readAll(START, 1000)).length
    const switched = await laptop.post('/multi-session/set-active', { sessionToken: ada })
    expect(switched.status).toBe(200)
    expect(switched.json).toMatchObject({ session: { token: ada }, user: { email: 'ada@example.com' } })
    expect(switched.headers['set-auth-token']).toEqual(expect.stringMatching(new RegExp(`^${ada}\\.`)))
    expect(await activeEmail(laptop)).toBe('ada@example.com')
    // Switching changes no session: both still work, and no event was written for it.
    expect(await works(bob)).toBe(true)
    expect(await tessera.store.readAll(START, 1000)).toHaveLength(eventsBefore)

    // A device without cookies has none to list.
    expect(await listed(browserFor(tessera))).toEqual([])
  })

  it('revokes a device session everywhere; revoking the active one moves to another', async () => {
    const laptop = browserFor(tessera)
    const ada = await enter(laptop, 'ada')
    const bob = await enter(laptop, 'bob')
    const cyd = await enter(laptop, 'cyd')

    const notActive = await laptop.post('/multi-session/revoke', { sessionToken: ada })
    expect(notActive.json).toEqual({ status: true })
    expect(await works(ada)).toBe(false)
    expect(laptop.jar.get(multiCookie(ada))).toBeUndefined()
    expect(await activeEmail(laptop)).toBe('cyd@example.com')
    expect(await emails(laptop)).toEqual(['bob@example.com', 'cyd@example.com'])

    const active = await laptop.post('/multi-session/revoke', { sessionToken: cyd })
    expect(active.json).toEqual({ status: true })
    expect(await works(cyd)).toBe(false)
    expect(await activeEmail(laptop)).toBe('bob@example.com')
    expect(active.headers['set-auth-token']).toEqual(expect.stringMatching(new RegExp(`^${bob}\\.`)))

    const last = await laptop.post('/multi-session/revoke', { sessionToken: bob })
    expect(last.json).toEqual({ status: true })
    expect(laptop.jar.get(COOKIE)).toBeUndefined()
    expect(await activeEmail(laptop)).toBeNull()
    expect(await listed(laptop)).toEqual([])

    // The owner's feed says they signed out, from this device.
    const revoked = (await tessera.store.readAll(START, 1000)).filter(
      (event) => event.type === 'session.revoked',
    )
    expect(revoked.map((event) => (event.data as { reason: string }).reason)).toEqual([
      'sign-out',
      'sign-out',
      'sign-out',
    ])
    const bobDevice = browserFor(tessera)
    await enter(bobDevice, 'bob')
    const feed = (await bobDevice.get('/activity')).json as { items: { type: string }[] }
    expect(feed.items.map((item) => item.type)).toContain('user.signed-out')
  })

  it('answers 401 INVALID_SESSION_TOKEN for a token the device does not hold', async () => {
    const laptop = browserFor(tessera)
    await enter(laptop, 'ada')
    const phone = browserFor(tessera)
    const foreign = await enter(phone, 'bob')
    for (const sessionToken of [foreign, 'unknown-token', '']) {
      for (const path of ['/multi-session/set-active', '/multi-session/revoke']) {
        const response = await laptop.post(path, { sessionToken })
        expect(response.status).toBe(401)
        expect(response.json).toEqual({ code: 'INVALID_SESSION_TOKEN', message: 'Invalid session token' })
      }
    }
    expect(await works(foreign)).toBe(true)
    expect(await activeEmail(laptop)).toBe('ada@example.com')
    // Revoking needs a live session on the device; switching does not.
    const signedOut = browserFor(tessera)
    expect((await signedOut.post('/multi-session/revoke', { sessionToken: foreign })).json).toMatchObject({
      code: 'UNAUTHORIZED',
    })
  })

  it('drops the cookie of an expired session: left out of the list, 401 on set-active and revoke', async () => {
    const laptop = browserFor(tessera)
    const brief = await enter(laptop, 'ada', { rememberMe: false })
    await enter(laptop, 'bob')
    now += 2 * DAY
    const listing = await laptop.get('/multi-session/list-device-sessions')
    expect((listing.json as DeviceSession[]).map((entry) => entry.user.email)).toEqual(['bob@example.com'])
    expect(listing.setCookie.some((line) => line.startsWith(`${multiCookie(brief)}=;`))).toBe(true)
    expect(laptop.jar.get(multiCookie(brief))).toBeUndefined()

    for (const path of ['/multi-session/set-active', '/multi-session/revoke']) {
      const device = browserFor(tessera)
      const expired = await enter(device, 'cyd', { rememberMe: false })
      await enter(device, 'dee')
      now += 2 * DAY
      const response = await device.post(path, { sessionToken: expired })
      expect(response.status).toBe(401)
      expect(response.json).toEqual({ code: 'INVALID_SESSION_TOKEN', message: 'Invalid session token' })
      expect(device.jar.get(multiCookie(expired))).toBeUndefined()
      expect(await activeEmail(device)).toBe('dee@example.com')
    }
  })

  it('keeps one session per account on a device: signing in again ends the older one', async () => {
    const laptop = browserFor(tessera)
    const first = await enter(laptop, 'ada')
    await enter(laptop, 'bob')
    const second = await enter(laptop, 'ada')
    expect(await works(first)).toBe(false)
    expect(laptop.jar.get(multiCookie(first))).toBeUndefined()
    expect(await emails(laptop)).toEqual(['ada@example.com', 'bob@example.com'])
    expect(
      (await listed(laptop)).find((entry) => entry.user.email === 'ada@example.com')?.session.token,
    ).toBe(second)
    const reasons = (await tessera.store.readAll(START, 1000))
      .filter((event) => event.type === 'session.revoked')
      .map((event) => (event.data as { reason: string }).reason)
    expect(reasons).toEqual(['signed-in-again'])
  })

  it('admits five accounts per device; the sixth is active but gets no cookie of its own', async () => {
    const laptop = browserFor(tessera)
    const names = ['ada', 'bob', 'cyd', 'dee', 'eve']
    for (const name of names) await enter(laptop, name)
    const sixth = await enter(laptop, 'fay')
    expect(await activeEmail(laptop)).toBe('fay@example.com')
    expect(laptop.jar.get(multiCookie(sixth))).toBeUndefined()
    expect(await emails(laptop)).toEqual(names.map((name) => `${name}@example.com`))
    // Once one leaves, the next sign-in gets a cookie again.
    const [firstEntry] = await listed(laptop)
    await laptop.post('/multi-session/revoke', { sessionToken: firstEntry?.session.token ?? '' })
    const seventh = await enter(laptop, 'gus')
    expect(laptop.jar.get(multiCookie(seventh))).toBeDefined()
  })

  it('signs every account of the device out on sign-out, and their tokens stop working everywhere', async () => {
    const laptop = browserFor(tessera)
    const tokens = [await enter(laptop, 'ada'), await enter(laptop, 'bob'), await enter(laptop, 'cyd')]
    const phone = browserFor(tessera)
    const elsewhere = await enter(phone, 'ada')
    const signOut = await laptop.post('/sign-out')
    expect(signOut.json).toEqual({ success: true })
    for (const token of tokens) {
      expect(await works(token)).toBe(false)
      expect(laptop.jar.get(multiCookie(token))).toBeUndefined()
    }
    expect(laptop.jar.get(COOKIE)).toBeUndefined()
    expect(await listed(laptop)).toEqual([])
    // Another device's session of one of those accounts is not this device's to end.
    expect(await works(elsewhere)).toBe(true)
  })
})
