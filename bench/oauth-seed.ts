/// Seeding of the `oauth` group (bench/oauth.ts), on each server through its own routes:
///
/// - a confidential web client, registered by the first seeded user (`POST /oauth2/create-client`);
/// - `CHAINS` code flows with PKCE and `offline_access` (authorize, the consent page's
///   `POST /oauth2/consent`, the code exchanged): refresh chains, and access tokens to introspect
///   and to read userinfo with;
/// - `BENCH_OAUTH_CODES` authorization codes, each with its PKCE verifier, for the code exchange
///   alone: the consent is remembered, so each is one `GET /oauth2/authorize`, 16 at a time;
/// - a machine client for `client_credentials`, registered as an operator
///   (`POST /admin/oauth2/create-client`: Tessera's server key; better-auth's administrative
///   registration, the only one that sets `client_credentials_scopes`, which its bench server
///   offers over HTTP) with the custom scope `bench:read` both servers are configured with.

import { createHash, randomBytes } from 'node:crypto'
import { BENCH_SERVER_KEY, SERVER_KEY_HEADER } from './api-keys.js'
import type { SeedTarget } from './groups.js'

/** Refresh chains: more than the scenarios' connections, so one is always free. */
const CHAINS = 24
/**
 * Codes for the exchange alone: each is used once (a second use revokes its grant). Enough for the
 * 13 s of warm-up, window and tail at the 5× target (some 2,000 exchanges a second); 3,000 ran out
 * in the warm-up on a quiet machine. Seeding them takes one to two minutes per server.
 */
export const OAUTH_CODES_DEFAULT = 30_000
const SEED_CONCURRENCY = 16
// Never followed: the code is read off the redirect. better-auth wants https for a web client.
export const REDIRECT_URI = 'https://rp.example.test/callback'
export const FORM = 'application/x-www-form-urlencoded'
/** A scope about no person, configured on both servers (bench/features-config.ts). */
export const MACHINE_SCOPE = 'bench:read'

export type PendingCode = { code: string; verifier: string }

export type OAuthSetup = {
  /** The web client's secret as basic auth. */
  basic: string
  /** The machine client's secret as basic auth (client_credentials). */
  machineBasic: string
  accessTokens: string[]
  refreshTokens: string[]
  /** Each taken once by the code exchange scenario. */
  codes: PendingCode[]
  /** Lines for the run's notes (e.g. the codes ran out). */
  notes: string[]
}

export const UNSEEDED_OAUTH: OAuthSetup = {
  basic: '',
  machineBasic: '',
  accessTokens: [],
  refreshTokens: [],
  codes: [],
  notes: [],
}

const base64url = (bytes: Buffer) => bytes.toString('base64url')
const basicOf = (client: { client_id: string; client_secret: string }) =>
  `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`

const send = async (url: string, init: RequestInit) => {
  const response = await fetch(url, { redirect: 'manual', ...init })
  const body = await response.text()
  if (response.status >= 400) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${body}`)
  return { response, body }
}

const createClient = async (baseUrl: string, path: string, headers: Record<string, string>, body: object) => {
  const { body: answer } = await send(`${baseUrl}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  return basicOf(JSON.parse(answer) as { client_id: string; client_secret: string })
}

const registerWebClient = (baseUrl: string, cookie: string) =>
  createClient(
    baseUrl,
    '/oauth2/create-client',
    { cookie, origin: new URL(baseUrl).origin },
    {
      client_name: 'Bench relying party',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  )

const MACHINE_CLIENT = {
  client_name: 'Bench service',
  redirect_uris: [REDIRECT_URI],
  grant_types: ['client_credentials'],
  token_endpoint_auth_method: 'client_secret_basic',
  scope: MACHINE_SCOPE,
  client_credentials_scopes: [MACHINE_SCOPE],
}

/** Tessera takes the server key (never with a cookie); better-auth's bench server the session. */
const registerMachineClient = (baseUrl: string, cookie: string) =>
  createClient(
    baseUrl,
    '/admin/oauth2/create-client',
    { [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
    MACHINE_CLIENT,
  ).catch(() => createClient(baseUrl, '/admin/oauth2/create-client', { cookie }, MACHINE_CLIENT))

const clientIdOf = (basic: string) => Buffer.from(basic.slice(6), 'base64').toString().split(':')[0] ?? ''

/** Authorize (and consent, when asked) for the signed-in `cookie`: a code and its PKCE verifier. */
const authorize = async (baseUrl: string, cookie: string, basic: string, prompt: boolean) => {
  const verifier = base64url(randomBytes(32))
  const url = new URL(`${baseUrl}/api/auth/oauth2/authorize`)
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientIdOf(basic),
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile offline_access',
    state: base64url(randomBytes(8)),
    ...(prompt ? { prompt: 'consent' } : {}),
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  }).toString()
  const { response, body: answer } = await send(url.toString(), { headers: { cookie, accept: 'text/html' } })
  // A redirect for a browser; some answer a script's request with `{url}` instead.
  const next = response.headers.get('location') ?? (JSON.parse(answer) as { url?: string }).url ?? ''
  let landed = new URL(next, baseUrl)
  if (landed.searchParams.get('code') === null) {
    if (!landed.pathname.endsWith('/consent')) throw new Error(`authorize sent the user to ${landed}`)
    const { body } = await send(`${baseUrl}/api/auth/oauth2/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: new URL(baseUrl).origin },
      body: JSON.stringify({ accept: true, oauth_query: landed.search.slice(1) }),
    })
    landed = new URL((JSON.parse(body) as { url: string }).url)
  }
  const code = landed.searchParams.get('code')
  if (!code) throw new Error(`no code after consent: ${landed}`)
  return { code, verifier }
}

/** The token request that exchanges `pending` (the body the code exchange scenario sends too). */
export const exchangeBody = (pending: PendingCode): string =>
  new URLSearchParams({
    grant_type: 'authorization_code',
    code: pending.code,
    redirect_uri: REDIRECT_URI,
    code_verifier: pending.verifier,
  }).toString()

const exchange = async (baseUrl: string, basic: string, pending: PendingCode) => {
  const { body } = await send(`${baseUrl}/api/auth/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': FORM, authorization: basic },
    body: exchangeBody(pending),
  })
  return JSON.parse(body) as { access_token: string; refresh_token: string }
}

const codeCount = (): number => {
  const raw = process.env.BENCH_OAUTH_CODES?.trim()
  const value = raw ? Number(raw) : OAUTH_CODES_DEFAULT
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`BENCH_OAUTH_CODES must be a whole number >= 1 (got "${raw}")`)
  return value
}

/** `count` codes, `SEED_CONCURRENCY` authorizations at a time. */
const seedCodes = async (baseUrl: string, cookie: string, basic: string, count: number) => {
  const codes: PendingCode[] = []
  let started = 0
  const worker = async () => {
    while (started < count) {
      started += 1
      codes.push(await authorize(baseUrl, cookie, basic, false))
    }
  }
  await Promise.all(Array.from({ length: Math.min(SEED_CONCURRENCY, count) }, worker))
  return codes
}

export const seedOAuth = async ({ baseUrl, users, notes }: SeedTarget): Promise<OAuthSetup> => {
  const user = users[0]
  if (!user) throw new Error('the oauth group needs one seeded user')
  const basic = await registerWebClient(baseUrl, user.cookie)
  const machineBasic = await registerMachineClient(baseUrl, user.cookie)
  const setup: OAuthSetup = { ...UNSEEDED_OAUTH, basic, machineBasic, accessTokens: [], refreshTokens: [] }
  for (let chain = 0; chain < CHAINS; chain++) {
    const tokens = await exchange(baseUrl, basic, await authorize(baseUrl, user.cookie, basic, true))
    setup.accessTokens.push(tokens.access_token)
    setup.refreshTokens.push(tokens.refresh_token)
  }
  const started = Date.now()
  const count = codeCount()
  setup.codes = await seedCodes(baseUrl, user.cookie, basic, count)
  setup.notes = notes
  notes.push(
    `oauth: one confidential client, ${CHAINS} code flows with PKCE (refresh chains), ` +
      `${count} codes authorized in ${Math.round((Date.now() - started) / 1000)} s, one machine client`,
  )
  return setup
}
