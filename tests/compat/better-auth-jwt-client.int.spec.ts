/// Compatibility: better-auth 1.7.5's client with its `jwtClient` plugin against a Tessera listening
/// on loopback: `token()` gets a JWT, `jwks()` the keys that verify it, and `getSession()` sees the
/// `set-auth-jwt` header.

import { createAuthClient } from 'better-auth/client'
import { jwtClient } from 'better-auth/client/plugins'
import { createLocalJWKSet, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { browserCookies } from './browser-cookies.js'

const PASSWORD = 'correct horse battery'

const device = (tessera: TestTessera) => {
  const { jar, fetchOptions } = browserCookies(tessera)
  const client = createAuthClient({
    baseURL: tessera.baseUrl,
    plugins: [jwtClient()],
    fetchOptions,
  })
  return { jar, client }
}

describe('better-auth 1.7.5 jwtClient against Tessera (pglite, loopback)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ listen: true })
  })
  afterAll(() => tessera.cleanup())

  it('gets a token, the key set that verifies it, and the JWT header of get-session', async () => {
    const { client } = device(tessera)
    const anonymous = await client.token()
    expect(anonymous.data).toBeNull()
    expect(anonymous.error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })

    const signUp = await client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: PASSWORD })
    expect(signUp.error).toBeNull()

    const token = await client.token()
    expect(token.error).toBeNull()
    expect(token.data?.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)

    const jwks = await client.jwks()
    expect(jwks.error).toBeNull()
    expect(jwks.data?.keys).toEqual([expect.objectContaining({ alg: 'EdDSA', kty: 'OKP', crv: 'Ed25519' })])
    const keys = createLocalJWKSet({ keys: jwks.data?.keys ?? [] })
    const issuer = tessera.ctx.config.baseUrl
    const { payload } = await jwtVerify(token.data?.token ?? '', keys, { issuer, audience: issuer })
    expect(payload).toMatchObject({ sub: signUp.data?.user.id, email: 'ada@example.com', name: 'Ada' })

    let header: string | null = null
    const session = await client.getSession({
      fetchOptions: {
        onSuccess(context) {
          header = context.response.headers.get('set-auth-jwt')
        },
      },
    })
    expect(session.data?.user.email).toBe('ada@example.com')
    expect(header).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    await expect(jwtVerify(header ?? '', keys, { issuer, audience: issuer })).resolves.toBeDefined()
  })
})
