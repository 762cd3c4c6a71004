/// Tessera as an OpenID provider (issue 35): what its speed-ups must never serve stale. The clients
/// are cached in the process that projects (command-api/oauth-provider/provider-cache.ts) and access
/// tokens are checked against an inline record of revocations instead of their grants' streams
/// (projections/oauth-provider/oauth-revocations.ts). So, on one PostgreSQL with a second
/// `--role api` instance beside the first:
/// - a rotated secret, a disabled client and a deleted client are refused at once by the instance
///   that cached them, whichever instance made the change;
/// - a token revoked on one instance (or whose refresh token was replayed) is inactive on both at
///   once, even with the projector stopped, and where it had been found live before;
/// - a deleted person's access tokens stop at once (their grants ended with them);
/// - the claims of an ID token and of userinfo follow a change of the person's name, picture,
///   address or verified flag made on either instance, though the person is cached where they were
///   read before.

import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeJwt } from 'jose'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTesseraDatabase } from '../../app/database.js'
import { createTessera, type Tessera } from '../../app/server/tessera.js'
import { loadConfig } from '../../infra/config/config.js'
import { type Browser, browserFor } from '../support/browser.js'
import { startTessera, type TestTessera, testClient } from '../support/tessera.js'
import { authorizeIn, freePort, PASSWORD, REDIRECT_URI, SERVER_KEY } from '../support/tessera-as-provider.js'

const SECRET = 'oidc-caches-secret-0123456789abcdefghijkl'
const FEATURES = { oauthProvider: {} }

type Client = { client_id: string; client_secret: string }
type Tokens = { access_token: string; refresh_token: string; id_token?: string }

const operator = { 'x-tessera-server-key': SERVER_KEY }

describe('Tessera as an OpenID provider: its caches never serve a stale client or a revoked token', () => {
  let main: TestTessera
  let api: Tessera
  let browser: Browser

  beforeAll(async () => {
    const port = await freePort()
    const env = {
      AUTH_SECRET: SECRET,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      SERVER_KEYS: `ops=${SERVER_KEY}`,
    }
    main = await startTessera({ kind: 'postgres', listen: true, env, features: FEATURES })
    // A second instance with the same configuration that never projects (so it caches nothing).
    const cwd = mkdtempSync(join(tmpdir(), 'tessera-test-'))
    writeFileSync(join(cwd, 'tessera.config.json'), JSON.stringify(FEATURES))
    const { url } = main.database as unknown as { url: string }
    api = await createTessera({
      config: loadConfig({ NODE_ENV: 'test', ...env, DATABASE_URL: url }, { cwd }),
      logger: pino({ level: 'silent' }),
      role: 'api',
      database: await openTesseraDatabase({ kind: 'postgres', url }),
    })
    browser = browserFor(main)
    const email = `ada-${randomBytes(4).toString('hex')}@example.com`
    expect((await browser.post('/sign-up/email', { name: 'Ada', email, password: PASSWORD })).status).toBe(
      200,
    )
  }, 240_000)
  afterAll(async () => {
    await api?.close()
    await main?.cleanup()
  })

  const call = (tessera: Tessera, path: string, body: object, headers: Record<string, string> = {}) =>
    testClient(tessera).request('POST', path, body, headers)

  const registered = async (): Promise<Client> => {
    const created = await call(
      main,
      '/admin/oauth2/create-client',
      {
        client_name: 'Notes',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
        token_endpoint_auth_method: 'client_secret_post',
      },
      operator,
    )
    expect(created.status, created.body).toBe(201)
    return created.json as Client
  }

  const introspect = (tessera: Tessera, client: Client, token: string) =>
    call(tessera, '/oauth2/introspect', {
      token,
      client_id: client.client_id,
      client_secret: client.client_secret,
    })

  const active = async (tessera: Tessera, client: Client, token: string) => {
    const answer = await introspect(tessera, client, token)
    expect(answer.status, answer.body).toBe(200)
    return (answer.json as { active: boolean }).active
  }

  /** A person's code flow with PKCE: access and refresh tokens. */
  const tokensOf = async (
    client: Client,
    as: Browser = browser,
    scope = 'openid profile offline_access',
  ): Promise<Tokens> => {
    const verifier = randomBytes(32).toString('base64url')
    const url = new URL(`${main.baseUrl}/api/auth/oauth2/authorize`)
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope,
      state: 'st',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString()
    const back = await authorizeIn(as, url)
    const answer = await call(main, '/oauth2/token', {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code'),
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: client.client_id,
      client_secret: client.client_secret,
    })
    expect(answer.status, answer.body).toBe(200)
    return answer.json as Tokens
  }

  const machineToken = async (client: Client) => {
    const answer = await call(main, '/oauth2/token', { grant_type: 'client_credentials', ...client })
    expect(answer.status, answer.body).toBe(200)
    return (answer.json as { access_token: string }).access_token
  }

  it('refuses a secret rotated on either instance at once on the instance that cached the client', async () => {
    const client = await registered()
    const token = (await tokensOf(client)).access_token
    // Authenticated on the projecting instance: the client is cached there now.
    expect(await active(main, client, token)).toBe(true)

    const rotated = await call(
      main,
      '/oauth2/client/rotate-secret',
      { client_id: client.client_id },
      operator,
    )
    expect(rotated.status, rotated.body).toBe(200)
    const second = { ...client, client_secret: (rotated.json as Client).client_secret }
    expect((await introspect(main, client, token)).json).toMatchObject({ error: 'invalid_client' })
    expect(await active(main, second, token)).toBe(true)

    // The other instance rotates; the answer waits until this one's projector has applied it.
    const again = await call(api, '/oauth2/client/rotate-secret', { client_id: client.client_id }, operator)
    expect(again.status, again.body).toBe(200)
    const third = { ...client, client_secret: (again.json as Client).client_secret }
    for (const tessera of [main, api]) {
      expect((await introspect(tessera, second, token)).json).toMatchObject({ error: 'invalid_client' })
      expect(await active(tessera, third, token)).toBe(true)
    }
  })

  it('refuses a client disabled or deleted on the other instance, and its tokens stop', async () => {
    const disabled = await registered()
    const deleted = await registered()
    const personal = (await tokensOf(deleted)).access_token
    const machine = await machineToken(deleted)
    for (const client of [disabled, deleted]) expect(await active(main, client, personal)).toBe(true)

    const update = { client_id: disabled.client_id, update: { disabled: true } }
    expect((await call(api, '/oauth2/update-client', update, operator)).status).toBe(200)
    expect((await introspect(main, disabled, personal)).json).toMatchObject({ error: 'invalid_client' })

    const removed = await call(api, '/oauth2/delete-client', { client_id: deleted.client_id }, operator)
    expect(removed.status, removed.body).toBe(200)
    expect((await introspect(main, deleted, personal)).json).toMatchObject({ error: 'invalid_client' })
    // A resource server of its own asks about the deleted client's tokens: both ended.
    const resourceServer = await registered()
    for (const tessera of [main, api])
      for (const token of [personal, machine])
        expect(await active(tessera, resourceServer, token)).toBe(false)
  })

  it('answers a token revoked on the other instance inactive where it was known live', async () => {
    const client = await registered()
    const tokens = await tokensOf(client)
    // Found live on the projecting instance: it remembers so.
    expect(await active(main, client, tokens.access_token)).toBe(true)
    const revoked = await call(api, '/oauth2/revoke', { token: tokens.access_token, ...client })
    expect(revoked.status, revoked.body).toBe(200)
    for (const tessera of [main, api]) expect(await active(tessera, client, tokens.access_token)).toBe(false)
    // A refresh token presented twice ends its grant: its access tokens too, wherever they were read.
    const reused = await tokensOf(client)
    expect(await active(main, client, reused.access_token)).toBe(true)
    const refresh = { grant_type: 'refresh_token', refresh_token: reused.refresh_token, ...client }
    expect((await call(api, '/oauth2/token', refresh)).status).toBe(200)
    expect((await call(api, '/oauth2/token', refresh)).json).toMatchObject({ error: 'invalid_grant' })
    expect(await active(main, client, reused.access_token)).toBe(false)
  })

  it('answers a token revoked on one instance inactive on both at once, the projector stopped', async () => {
    const client = await registered()
    const revoked = await tokensOf(client)
    const kept = await tokensOf(client)
    for (const tessera of [main, api]) expect(await active(tessera, client, revoked.access_token)).toBe(true)
    await main.projector.stop()
    try {
      // Committed, though no read model can show it (503): the revocation holds all the same.
      await call(api, '/oauth2/revoke', { token: revoked.refresh_token, ...client })
      for (const tessera of [main, api]) {
        expect(await active(tessera, client, revoked.access_token)).toBe(false)
        expect(await active(tessera, client, kept.access_token)).toBe(true)
      }
    } finally {
      await main.projector.start()
    }
  })

  it("stops a deleted person's access tokens at once", async () => {
    const client = await registered()
    const person = browserFor(main)
    const email = `grace-${randomBytes(4).toString('hex')}@example.com`
    const signUp = await person.post('/sign-up/email', { name: 'Grace', email, password: PASSWORD })
    expect(signUp.status).toBe(200)
    const userId = (await person.session())?.user.id as string
    const tokens = await tokensOf(client, person)
    expect(await active(main, client, tokens.access_token)).toBe(true)
    const removed = await call(main, '/admin/remove-user', { userId }, operator)
    expect(removed.status, removed.body).toBe(200)
    for (const tessera of [main, api]) expect(await active(tessera, client, tokens.access_token)).toBe(false)
  })

  it("gives an ID token and userinfo the person's claims as changed on either instance", async () => {
    const client = await registered()
    const person = browserFor(main)
    const email = `mary-${randomBytes(4).toString('hex')}@example.com`
    expect((await person.post('/sign-up/email', { name: 'Mary', email, password: PASSWORD })).status).toBe(
      200,
    )
    const userId = (await person.session())?.user.id as string
    let tokens = await tokensOf(client, person, 'openid profile email offline_access')
    const claimsNow = async () => {
      const answer = await testClient(main).request('GET', '/oauth2/userinfo', undefined, {
        authorization: `Bearer ${tokens.access_token}`,
      })
      expect(answer.status, answer.body).toBe(200)
      return answer.json as Record<string, unknown>
    }
    const refreshed = async () => {
      const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, ...client }
      const answer = await call(main, '/oauth2/token', refresh)
      expect(answer.status, answer.body).toBe(200)
      tokens = answer.json as Tokens
      return decodeJwt(tokens.id_token as string)
    }
    expect(decodeJwt(tokens.id_token as string)).toMatchObject({ name: 'Mary', email })
    // Read on the projecting instance: the person is cached there now.
    expect(await claimsNow()).toMatchObject({ name: 'Mary', email, email_verified: false })
    expect(await refreshed()).toMatchObject({ name: 'Mary', email })

    const picture = 'https://example.com/mary.png'
    const changed = `somerville-${email}`
    // Each change made on one instance or the other, and what the claims must say after it.
    const changes: [Tessera, object, object][] = [
      [api, { name: 'Mary Somerville', image: picture }, { name: 'Mary Somerville', picture }],
      [main, { email: changed, emailVerified: true }, { email: changed, email_verified: true }],
      [api, { name: 'Mary S.' }, { name: 'Mary S.', picture, email: changed }],
    ]
    for (const [tessera, data, expected] of changes) {
      const updated = await call(tessera, '/admin/update-user', { userId, data }, operator)
      expect(updated.status, updated.body).toBe(200)
      expect(await refreshed()).toMatchObject(expected)
      expect(await claimsNow()).toMatchObject(expected)
    }
    expect(await claimsNow()).toMatchObject({
      name: 'Mary S.',
      picture: 'https://example.com/mary.png',
      email: `somerville-${email}`,
      email_verified: true,
    })
  })
})
