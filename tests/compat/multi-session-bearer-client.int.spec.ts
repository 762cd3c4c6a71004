/// Compatibility: better-auth 1.7.5's client with its `multiSessionClient` plugin (one browser-like
/// device that keeps cookies) and in bearer mode (no cookies: the token from `set-auth-token`, sent
/// back as `Authorization: Bearer`, as better-auth documents it), against a Tessera on loopback.

import { createAuthClient } from 'better-auth/client'
import { multiSessionClient } from 'better-auth/client/plugins'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { browserCookies } from './browser-cookies.js'

const PASSWORD = 'correct horse battery'

const multiSessionDevice = (tessera: TestTessera) => {
  const { jar, fetchOptions } = browserCookies(tessera)
  const client = createAuthClient({
    baseURL: tessera.baseUrl,
    plugins: [multiSessionClient()],
    fetchOptions,
  })
  return { jar, client }
}

/** A client that keeps no cookies: the token it last got in `set-auth-token` is its credential. */
const bearerClient = (tessera: TestTessera) => {
  let token = ''
  const client = createAuthClient({
    baseURL: tessera.baseUrl,
    fetchOptions: {
      // As a browser app sends it: Node's fetch adds `Sec-Fetch-Mode: cors`, so sign-in and sign-up
      // want a trusted Origin (login CSRF guard), on Tessera as on better-auth.
      headers: { origin: tessera.ctx.config.baseOrigin },
      auth: { type: 'Bearer', token: () => token },
      onSuccess(context) {
        const handedOut = context.response.headers.get('set-auth-token')
        if (handedOut) token = handedOut
      },
    },
  })
  return { client, token: () => token }
}

describe('better-auth 1.7.5 client: multi-session and bearer (pglite, loopback)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ listen: true })
  })
  afterAll(() => tessera.cleanup())

  it('lists, switches and revokes the accounts of one device through multiSessionClient', async () => {
    const { client } = multiSessionDevice(tessera)
    const ada = await client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: PASSWORD })
    const bob = await client.signUp.email({ name: 'Bob', email: 'bob@example.com', password: PASSWORD })
    expect(ada.error).toBeNull()
    expect(bob.error).toBeNull()

    const listed = await client.multiSession.listDeviceSessions()
    expect(listed.error).toBeNull()
    expect(listed.data?.map((entry) => entry.user.email).sort()).toEqual([
      'ada@example.com',
      'bob@example.com',
    ])
    expect((await client.getSession()).data?.user.email).toBe('bob@example.com')

    const switched = await client.multiSession.setActive({ sessionToken: ada.data?.token ?? '' })
    expect(switched.error).toBeNull()
    expect((await client.getSession()).data?.user.email).toBe('ada@example.com')

    const revoked = await client.multiSession.revoke({ sessionToken: bob.data?.token ?? '' })
    expect(revoked.error).toBeNull()
    expect(revoked.data).toEqual({ status: true })
    expect((await client.multiSession.listDeviceSessions()).data?.map((entry) => entry.user.email)).toEqual([
      'ada@example.com',
    ])

    const unknown = await client.multiSession.setActive({ sessionToken: 'not-a-session-token' })
    expect(unknown.data).toBeNull()
    expect(unknown.error).toMatchObject({
      status: 401,
      code: 'INVALID_SESSION_TOKEN',
      message: 'Invalid session token',
    })

    expect((await client.signOut()).error).toBeNull()
    expect((await client.getSession()).data).toBeNull()
    expect((await client.multiSession.listDeviceSessions()).data).toEqual([])
  })

  it('works with no cookies at all, on the token from set-auth-token', async () => {
    const bearer = bearerClient(tessera)
    const signUp = await bearer.client.signUp.email({
      name: 'Cy',
      email: 'cy@example.com',
      password: PASSWORD,
    })
    expect(signUp.error).toBeNull()
    expect(bearer.token()).toMatch(new RegExp(`^${signUp.data?.token}\\.`))

    const session = await bearer.client.getSession()
    expect(session.error).toBeNull()
    expect(session.data?.user.email).toBe('cy@example.com')
    expect((await bearer.client.listSessions()).data).toHaveLength(1)

    // A POST with a bearer token and no cookie needs no Origin.
    const updated = await bearer.client.updateUser({ name: 'Cy Young' })
    expect(updated.error).toBeNull()
    expect((await bearer.client.getSession()).data?.user.name).toBe('Cy Young')

    expect((await bearer.client.signOut()).error).toBeNull()
    expect((await bearer.client.getSession()).data).toBeNull()
  })
})
