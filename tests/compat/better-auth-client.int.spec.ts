/// Compatibility: better-auth 1.7.5's own client (`createAuthClient` from `better-auth/client`)
/// drives a Tessera listening on loopback. Each "device" is one client with its own cookie jar,
/// carried through the client's fetch hooks (Node's fetch keeps no cookies), and sends its
/// application's Origin as a browser would.

import { createAuthClient } from 'better-auth/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { browserCookies } from './browser-cookies.js'

const PASSWORD = 'correct horse battery'
const COOKIE = 'better-auth.session_token'

const device = (tessera: TestTessera) => {
  const { jar, fetchOptions } = browserCookies(tessera)
  const client = createAuthClient({
    // Tessera's address without a path: the client appends its default base path, /api/auth.
    baseURL: tessera.baseUrl,
    fetchOptions,
  })
  return { jar, client }
}

describe('better-auth 1.7.5 client against Tessera (pglite, loopback)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ listen: true })
  })
  afterAll(() => tessera.cleanup())

  it('listens on loopback and is reached over real HTTP', () => {
    expect(tessera.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('signs up, reads the session, signs in elsewhere, lists, revokes and signs out', async () => {
    const laptop = device(tessera)
    const signUp = await laptop.client.signUp.email({
      name: 'Ada Lovelace',
      email: 'Ada@Example.com',
      password: PASSWORD,
    })
    expect(signUp.error).toBeNull()
    expect(signUp.data?.token).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(signUp.data?.user).toMatchObject({
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      emailVerified: false,
    })
    expect(laptop.jar.get(COOKIE)).toBeDefined()

    const session = await laptop.client.getSession()
    expect(session.error).toBeNull()
    expect(session.data?.session.token).toBe(signUp.data?.token)
    expect(session.data?.user.id).toBe(signUp.data?.user.id)
    // The client revives ISO strings into Dates; a wrong shape would leave strings or NaN.
    expect(session.data?.session.expiresAt).toBeInstanceOf(Date)
    expect(session.data?.session.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000)

    const unrefreshed = await laptop.client.getSession({
      query: { disableRefresh: true, disableCookieCache: true },
    })
    expect(unrefreshed.error).toBeNull()
    expect(unrefreshed.data?.session.id).toBe(session.data?.session.id)

    const phone = device(tessera)
    const signIn = await phone.client.signIn.email({ email: 'ada@example.com', password: PASSWORD })
    expect(signIn.error).toBeNull()
    expect(signIn.data).toMatchObject({ redirect: false, user: { email: 'ada@example.com' } })
    const phoneSession = await phone.client.getSession()
    expect(phoneSession.data?.user.email).toBe('ada@example.com')

    const listed = await laptop.client.listSessions()
    expect(listed.error).toBeNull()
    expect(listed.data).toHaveLength(2)
    const phoneEntry = listed.data?.find((entry) => entry.id === phoneSession.data?.session.id)
    expect(phoneEntry?.token).toEqual(expect.any(String))

    const revoked = await laptop.client.revokeSession({ token: phoneEntry?.token ?? '' })
    expect(revoked.error).toBeNull()
    expect(revoked.data).toEqual({ status: true })
    expect((await phone.client.getSession()).data).toBeNull()
    expect((await laptop.client.listSessions()).data).toHaveLength(1)

    const signOut = await laptop.client.signOut()
    expect(signOut.error).toBeNull()
    expect(signOut.data).toEqual({ success: true })
    expect(laptop.jar.get(COOKIE)).toBeUndefined()
    const after = await laptop.client.getSession()
    expect(after.error).toBeNull()
    expect(after.data).toBeNull()
  })

  it('revokes other sessions and all sessions through the client', async () => {
    const email = 'grace@example.com'
    const laptop = device(tessera)
    expect((await laptop.client.signUp.email({ name: 'Grace', email, password: PASSWORD })).error).toBeNull()
    const phone = device(tessera)
    const tablet = device(tessera)
    for (const other of [phone, tablet])
      expect((await other.client.signIn.email({ email, password: PASSWORD })).error).toBeNull()

    expect((await laptop.client.revokeOtherSessions()).data).toEqual({ status: true })
    expect((await phone.client.getSession()).data).toBeNull()
    expect((await laptop.client.getSession()).data?.user.email).toBe(email)

    expect((await tablet.client.signIn.email({ email, password: PASSWORD })).error).toBeNull()
    expect((await laptop.client.revokeSessions()).data).toEqual({ status: true })
    expect((await laptop.client.getSession()).data).toBeNull()
    expect((await tablet.client.getSession()).data).toBeNull()
  })

  it("surfaces Tessera's errors as the client's {code, status, message}", async () => {
    const first = device(tessera)
    expect(
      (await first.client.signUp.email({ name: 'Lin', email: 'lin@example.com', password: PASSWORD })).error,
    ).toBeNull()

    const duplicate = await device(tessera).client.signUp.email({
      name: 'Lin',
      email: 'LIN@example.com',
      password: PASSWORD,
    })
    expect(duplicate.data).toBeNull()
    expect(duplicate.error).toMatchObject({
      code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL',
      message: 'User already exists. Use another email.',
      status: 422,
    })

    const wrong = await device(tessera).client.signIn.email({
      email: 'lin@example.com',
      password: 'not the password',
    })
    expect(wrong.error).toMatchObject({
      code: 'INVALID_EMAIL_OR_PASSWORD',
      message: 'Invalid email or password',
      status: 401,
    })

    const short = await device(tessera).client.signUp.email({
      name: 'Kay',
      email: 'kay@example.com',
      password: 'short',
    })
    expect(short.error).toMatchObject({ code: 'PASSWORD_TOO_SHORT', status: 400 })

    const anonymous = device(tessera)
    expect((await anonymous.client.getSession()).data).toBeNull()
    expect((await anonymous.client.listSessions()).error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
  })
})
