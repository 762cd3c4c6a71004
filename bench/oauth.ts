/// The OpenID provider's token endpoint and introspection (issue 35) on both servers, as a relying
/// party's backend calls them: `POST /oauth2/token` with `grant_type=refresh_token` (each answer's
/// new refresh token is the next request's, so a chain never replays a spent one) and
/// `POST /oauth2/introspect` for an access token, both with the client's secret as basic auth.
///
/// Seeding, through the public routes on each server: the first seeded user registers a confidential
/// client (`/oauth2/create-client`), then signs in to it `CHAINS` times by the code flow with PKCE
/// (authorize, the consent page's `POST /oauth2/consent`, the code exchanged at `/oauth2/token`).

import { createHash, randomBytes } from 'node:crypto'
import type { SeedTarget } from './groups.js'
import type { ScenarioSpec, Shot, Timing } from './load.js'
import { isRecord, parse } from './shots.js'

/** Refresh chains: more than the scenario's connections, so one is always free. */
const CHAINS = 24
// Never followed: the code is read off the redirect. better-auth wants https for a web client.
const REDIRECT_URI = 'https://rp.example.test/callback'
const FORM = 'application/x-www-form-urlencoded'

export type OAuthSetup = { basic: string; accessTokens: string[]; refreshTokens: string[] }

const base64url = (bytes: Buffer) => bytes.toString('base64url')

const send = async (url: string, init: RequestInit) => {
  const response = await fetch(url, { redirect: 'manual', ...init })
  const body = await response.text()
  if (response.status >= 400) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${body}`)
  return { response, body }
}

const registerClient = async (baseUrl: string, cookie: string) => {
  const { body } = await send(`${baseUrl}/api/auth/oauth2/create-client`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: new URL(baseUrl).origin },
    body: JSON.stringify({
      client_name: 'Bench relying party',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
    }),
  })
  const client = JSON.parse(body) as { client_id: string; client_secret: string }
  return `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`
}

/** One code flow for the signed-in `cookie`: authorize, consent, exchange. */
const signInOnce = async (baseUrl: string, cookie: string, basic: string) => {
  const clientId = Buffer.from(basic.slice(6), 'base64').toString().split(':')[0] ?? ''
  const verifier = base64url(randomBytes(32))
  const authorize = new URL(`${baseUrl}/api/auth/oauth2/authorize`)
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile offline_access',
    state: base64url(randomBytes(8)),
    prompt: 'consent',
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  }).toString()
  const { response, body: answer } = await send(authorize.toString(), {
    headers: { cookie, accept: 'text/html' },
  })
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
  const { body } = await send(`${baseUrl}/api/auth/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': FORM, authorization: basic },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  })
  return JSON.parse(body) as { access_token: string; refresh_token: string }
}

export const seedOAuth = async ({ baseUrl, users, notes }: SeedTarget): Promise<OAuthSetup> => {
  const user = users[0]
  if (!user) throw new Error('the oauth group needs one seeded user')
  const basic = await registerClient(baseUrl, user.cookie)
  const setup: OAuthSetup = { basic, accessTokens: [], refreshTokens: [] }
  for (let chain = 0; chain < CHAINS; chain++) {
    const tokens = await signInOnce(baseUrl, user.cookie, basic)
    setup.accessTokens.push(tokens.access_token)
    setup.refreshTokens.push(tokens.refresh_token)
  }
  notes.push(`oauth: one confidential client, ${CHAINS} code flows with PKCE (refresh chains)`)
  return setup
}

const refreshShot = (setup: OAuthSetup): Shot => {
  // A chain in flight is out of the pool until its answer gives its next token back.
  const token = setup.refreshTokens.shift() ?? ''
  return {
    kind: 'oauth2/token',
    method: 'POST',
    path: '/api/auth/oauth2/token',
    headers: { 'content-type': FORM, authorization: setup.basic },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
    fromServer: true,
    isCorrect: (body) => {
      const value = parse(body)
      if (!isRecord(value) || typeof value.access_token !== 'string') return false
      const next = value.refresh_token
      if (typeof next !== 'string') return false
      setup.refreshTokens.push(next)
      return true
    },
  }
}

const introspectShot = (setup: OAuthSetup, n: number): Shot => ({
  kind: 'oauth2/introspect',
  method: 'POST',
  path: '/api/auth/oauth2/introspect',
  headers: { 'content-type': FORM, authorization: setup.basic },
  body: new URLSearchParams({
    token: setup.accessTokens[n % setup.accessTokens.length] ?? '',
    token_type_hint: 'access_token',
  }).toString(),
  fromServer: true,
  isCorrect: (body) => {
    const value = parse(body)
    return isRecord(value) && value.active === true && typeof value.sub === 'string'
  },
})

export const oauthScenarios = (setup: OAuthSetup, timing: Timing): ScenarioSpec[] => {
  let sent = 0
  return [
    { name: 'oauth2/token refresh c16', connections: 16, ...timing, next: () => refreshShot(setup) },
    {
      name: 'oauth2/introspect c16',
      connections: 16,
      ...timing,
      next: () => introspectShot(setup, sent++),
    },
  ]
}
