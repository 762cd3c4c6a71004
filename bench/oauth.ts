/// The OpenID provider's token endpoint, introspection and userinfo (issue 35) on both servers, as a
/// relying party's backend calls them, each with its client's secret as basic auth:
///
/// - `oauth2/token code exchange c16`: `grant_type=authorization_code`, each seeded code once with
///   its PKCE verifier;
/// - `oauth2/token refresh c16`: `grant_type=refresh_token`, each answer's new refresh token the
///   next request's, so a chain never replays a spent one;
/// - `oauth2/token client_credentials c16`: the machine client's own token for `bench:read`;
/// - `oauth2/introspect c16`: an access token of the code flows;
/// - `oauth2/userinfo c16`: `GET /oauth2/userinfo` with such an access token as bearer.
///
/// Seeding is in bench/oauth-seed.ts.

import type { ScenarioSpec, Shot, Timing } from './load.js'
import { exchangeBody, FORM, MACHINE_SCOPE, type OAuthSetup } from './oauth-seed.js'
import { isRecord, parse } from './shots.js'

export { type OAuthSetup, seedOAuth, UNSEEDED_OAUTH } from './oauth-seed.js'

const TOKEN_PATH = '/api/auth/oauth2/token'

const tokenShot = (basic: string, body: string, isCorrect: Shot['isCorrect']): Shot => ({
  kind: 'oauth2/token',
  method: 'POST',
  path: TOKEN_PATH,
  headers: { 'content-type': FORM, authorization: basic },
  body,
  fromServer: true,
  isCorrect,
})

const answered = (body: string): Record<string, unknown> | null => {
  const value = parse(body)
  return isRecord(value) && typeof value.access_token === 'string' ? value : null
}

const RAN_OUT = 'oauth: the seeded codes ran out during the code exchange: raise BENCH_OAUTH_CODES'

const exchangeShot = (setup: OAuthSetup): Shot => {
  const pending = setup.codes.shift()
  if (!pending && !setup.notes.includes(RAN_OUT)) setup.notes.push(RAN_OUT)
  // Without a code left the request still goes, and its refusal counts as not served.
  const body = pending ? exchangeBody(pending) : 'grant_type=authorization_code&code=spent'
  return tokenShot(setup.basic, body, (answer) => {
    const value = answered(answer)
    return value !== null && typeof value.id_token === 'string'
  })
}

const refreshShot = (setup: OAuthSetup): Shot => {
  // A chain in flight is out of the pool until its answer gives its next token back.
  const token = setup.refreshTokens.shift() ?? ''
  const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString()
  return tokenShot(setup.basic, body, (answer) => {
    const next = answered(answer)?.refresh_token
    if (typeof next !== 'string') return false
    setup.refreshTokens.push(next)
    return true
  })
}

const clientCredentialsShot = (setup: OAuthSetup): Shot =>
  tokenShot(
    setup.machineBasic,
    new URLSearchParams({ grant_type: 'client_credentials', scope: MACHINE_SCOPE }).toString(),
    (answer) => answered(answer)?.scope === MACHINE_SCOPE,
  )

const accessToken = (setup: OAuthSetup, n: number) => setup.accessTokens[n % setup.accessTokens.length] ?? ''

const introspectShot = (setup: OAuthSetup, n: number): Shot => ({
  kind: 'oauth2/introspect',
  method: 'POST',
  path: '/api/auth/oauth2/introspect',
  headers: { 'content-type': FORM, authorization: setup.basic },
  body: new URLSearchParams({ token: accessToken(setup, n), token_type_hint: 'access_token' }).toString(),
  fromServer: true,
  isCorrect: (body) => {
    const value = parse(body)
    return isRecord(value) && value.active === true && typeof value.sub === 'string'
  },
})

const userInfoShot = (setup: OAuthSetup, n: number): Shot => ({
  kind: 'oauth2/userinfo',
  method: 'GET',
  path: '/api/auth/oauth2/userinfo',
  headers: { authorization: `Bearer ${accessToken(setup, n)}` },
  fromServer: true,
  isCorrect: (body) => {
    const value = parse(body)
    return isRecord(value) && typeof value.sub === 'string' && typeof value.name === 'string'
  },
})

export const oauthScenarios = (setup: OAuthSetup, timing: Timing): ScenarioSpec[] => {
  let sent = 0
  const c16 = { connections: 16, ...timing }
  return [
    // First: the codes are freshest (they live 10 minutes on both servers).
    { name: 'oauth2/token code exchange c16', ...c16, next: () => exchangeShot(setup) },
    { name: 'oauth2/token refresh c16', ...c16, next: () => refreshShot(setup) },
    { name: 'oauth2/token client_credentials c16', ...c16, next: () => clientCredentialsShot(setup) },
    { name: 'oauth2/introspect c16', ...c16, next: () => introspectShot(setup, sent++) },
    { name: 'oauth2/userinfo c16', ...c16, next: () => userInfoShot(setup, sent++) },
  ]
}
