/// The state of a started OAuth flow: 32 random characters sent to the provider, a 128-character
/// PKCE verifier and (for OpenID providers) a nonce, kept server-side for 10 minutes under the
/// state's SHA-256 with the flow's data sealed (projections/accounts/oauth-states.ts), and the
/// state in a signed cookie of the browser that started it. The callback takes the record (it is
/// gone after one use) and refuses it unless the same browser brings it back, so an attacker cannot
/// finish their own flow in someone else's browser (login CSRF). Both are made under AUTH_SECRET
/// and opened under it or a retired one (AUTH_SECRET_PREVIOUS), so a flow that was under way when
/// the secret was rotated still finishes.

import { timingSafeEqual } from 'node:crypto'
import { acceptedSecrets } from '../../infra/config/config.js'
import { decryptField, encryptField } from '../../infra/crypto/data-keys.js'
import { hmacSha256, type Secret } from '../../infra/crypto/hmac.js'
import { signCookieValue, unsignCookieValue } from '../../infra/crypto/signed-cookie.js'
import { ALPHANUMERIC, randomToken, sha256Hex } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'

export const STATE_LIFETIME_MS = 10 * 60 * 1000
const PKCE_ALPHABET = `${ALPHANUMERIC}-._~`

export type OAuthStateData = {
  providerId: string
  callbackURL: string
  errorURL: string | null
  newUserURL: string | null
  codeVerifier: string
  nonce: string | null
  /** Set when a signed-in user links another account. */
  link: { userId: string; email: string } | null
  requestSignUp: boolean
  expiresAt: number
}

export type StartedState = { state: string; data: OAuthStateData; cookie: { name: string; value: string } }

const sealingKey = (secret: Secret) => hmacSha256(secret, 'tessera/oauth-state/v1')

export const stateCookieName = (secure: boolean) =>
  secure ? '__Secure-better-auth.state' : 'better-auth.state'

export const startState = async (
  ctx: CommandContext,
  flow: Omit<OAuthStateData, 'codeVerifier' | 'nonce' | 'expiresAt'> & { openId: boolean },
): Promise<StartedState> => {
  const { openId, ...rest } = flow
  const state = randomToken(32, ALPHANUMERIC)
  const stateHash = sha256Hex(state)
  const now = ctx.clock().getTime()
  const data: OAuthStateData = {
    ...rest,
    codeVerifier: randomToken(128, PKCE_ALPHABET),
    nonce: openId ? randomToken(32, ALPHANUMERIC) : null,
    expiresAt: now + STATE_LIFETIME_MS,
  }
  // Flows nobody came back for go as new ones start; the table holds only the last 10 minutes.
  await ctx.lookups.oauthStates.forgetExpired(new Date(now))
  await ctx.lookups.oauthStates.save({
    state_hash: stateHash,
    sealed: encryptField(sealingKey(ctx.config.secret), JSON.stringify(data), stateHash),
    expires_at: new Date(data.expiresAt),
  })
  const secure = ctx.config.baseUrl.startsWith('https:')
  return {
    state,
    data,
    cookie: { name: stateCookieName(secure), value: signCookieValue(state, ctx.config.secret) },
  }
}

export type TakenState =
  | { ok: true; data: OAuthStateData }
  | { ok: false; code: 'state_not_found' | 'state_mismatch'; errorURL: string | null }

/**
 * Takes the record once; `cookieValue` is the state cookie the browser sent (signed), if any. The
 * checks run in better-auth's order, with its codes: no state at all is `state_not_found`; an
 * unknown (or already used) one, a browser without the flow's cookie, and an expired flow are
 * `state_mismatch`, the last two sent to the flow's own errorCallbackURL. The cookie is checked
 * before the record is taken: someone else who opens the callback URL (without the cookie) cannot
 * spend the flow, which the browser that started it can still finish.
 */
export const takeState = async (
  ctx: CommandContext,
  state: string,
  cookieValue: string | undefined,
): Promise<TakenState> => {
  if (!state || state.length > 256) return { ok: false, code: 'state_not_found', errorURL: null }
  const stateHash = sha256Hex(state)
  const secrets = acceptedSecrets(ctx.config)
  const found = await ctx.lookups.oauthStates.find(stateHash)
  const data = found ? openState(secrets, found.sealed, stateHash) : null
  if (data === null) return { ok: false, code: 'state_mismatch', errorURL: null }
  const fromCookie = cookieValue ? unsignCookieValue(cookieValue, secrets) : null
  if (fromCookie === null || !sameText(fromCookie, state))
    return { ok: false, code: 'state_mismatch', errorURL: data.errorURL }
  // Once: of two callbacks racing with the right cookie, one takes the record.
  const taken = await ctx.lookups.oauthStates.take(stateHash)
  if (!taken) return { ok: false, code: 'state_mismatch', errorURL: null }
  if (new Date(taken.expires_at).getTime() <= ctx.clock().getTime())
    return { ok: false, code: 'state_mismatch', errorURL: data.errorURL }
  return { ok: true, data }
}

/** The flow's data, opened under the current secret or a retired one; null under none. */
const openState = (secrets: readonly Secret[], sealed: string, stateHash: string): OAuthStateData | null => {
  for (const secret of secrets) {
    try {
      return JSON.parse(decryptField(sealingKey(secret), sealed, stateHash)) as OAuthStateData
    } catch {
      // Sealed under another of the accepted secrets, or under none of them.
    }
  }
  return null
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
