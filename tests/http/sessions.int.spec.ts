import { afterEach, beforeEach, expect, it } from 'vitest'
import { cookieJar } from '../support/cookies.js'
import { describeEachDatabase } from '../support/databases.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SESSION_COOKIE = 'better-auth.session_token'

describeEachDatabase('sign-up, sign-in and sessions over HTTP', (_fresh, kind) => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera({ kind })
  })
  afterEach(() => tessera.cleanup())

  const browser = () => {
    const jar = cookieJar()
    return {
      jar,
      async call(method: 'GET' | 'POST', path: string, body?: unknown) {
        const response = await tessera.api.request(
          method,
          path,
          body,
          jar.header() ? { cookie: jar.header() } : {},
        )
        jar.store(response.headers['set-cookie'])
        return response
      },
    }
  }

  it('signs up, sees its session, signs in on a second device, revokes it, signs out', async () => {
    const laptop = browser()
    const signUp = await laptop.call('POST', '/sign-up/email', {
      name: 'Ada Lovelace',
      email: 'Ada@Example.com',
      password: 'correct horse battery',
    })
    expect(signUp.status).toBe(200)
    const { token, user } = signUp.json as { token: string; user: { email: string; emailVerified: boolean } }
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(user).toMatchObject({ email: 'ada@example.com', emailVerified: false, name: 'Ada Lovelace' })
    expect(laptop.jar.attributesOf(SESSION_COOKIE)).toMatch(/HttpOnly/i)
    expect(laptop.jar.attributesOf(SESSION_COOKIE)).toMatch(/SameSite=Lax/i)
    expect(laptop.jar.attributesOf(SESSION_COOKIE)).toMatch(/Max-Age=604800/i)

    const session = await laptop.call('GET', '/get-session')
    expect(session.json).toMatchObject({ session: { token }, user: { email: 'ada@example.com' } })
    // Unknown query parameters (cache busters) are ignored, as better-auth does.
    expect((await laptop.call('GET', '/get-session?_=1732000000')).json).toMatchObject({ session: { token } })

    const phone = browser()
    const signIn = await phone.call('POST', '/sign-in/email', {
      email: 'ADA@example.com',
      password: 'correct horse battery',
    })
    expect(signIn.status).toBe(200)
    expect(signIn.json).toMatchObject({ redirect: false, user: { email: 'ada@example.com' } })

    const listed = (await laptop.call('GET', '/list-sessions')).json as { id: string; token: string }[]
    expect(listed).toHaveLength(2)
    const phoneSessionId = ((await phone.call('GET', '/get-session')).json as { session: { id: string } })
      .session.id
    expect(listed.map((s) => s.id)).toContain(phoneSessionId)
    expect(JSON.stringify(listed)).not.toContain((signIn.json as { token: string }).token)

    const revoked = await laptop.call('POST', '/revoke-session', { token: phoneSessionId })
    expect(revoked.json).toEqual({ status: true })
    expect((await phone.call('GET', '/get-session')).json).toBeNull()
    expect((await laptop.call('GET', '/list-sessions')).json).toHaveLength(1)

    const signOut = await laptop.call('POST', '/sign-out')
    expect(signOut.json).toEqual({ success: true })
    expect(laptop.jar.get(SESSION_COOKIE)).toBeUndefined()
    expect(
      (
        await tessera.api.request('GET', '/get-session', undefined, {
          cookie: `${SESSION_COOKIE}=${encodeURIComponent(String(session.json && token))}`,
        })
      ).json,
    ).toBeNull()
  })
})
