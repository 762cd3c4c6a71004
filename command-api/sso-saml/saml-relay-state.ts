/// The state of a started SAML sign-in: the RelayState sent with the AuthnRequest (32 random
/// characters), kept server-side for 5 minutes under its SHA-256 in the OAuth flows' table, sealed
/// under AUTH_SECRET with a label of its own; and the same value, signed, in a cookie of the browser
/// that started. It holds the AuthnRequest's ID, which the IdP's answer must carry in InResponseTo.
///
/// The IdP posts its answer cross-site, so a SameSite=Lax cookie would not come along: on https the
/// cookie is SameSite=None (Secure); on plain http (development) browsers refuse None without
/// Secure, so it is Lax there and binds only when the IdP is same-site. better-auth skips this
/// cookie check at its ACS; Tessera keeps it, so a stolen RelayState + SAMLResponse cannot be
/// finished in another browser (login CSRF).

import { timingSafeEqual } from 'node:crypto'
import { acceptedSecrets } from '../../infra/config/config.js'
import { decryptField, encryptField } from '../../infra/crypto/data-keys.js'
import { hmacSha256, type Secret } from '../../infra/crypto/hmac.js'
import { signCookieValue, unsignCookieValue } from '../../infra/crypto/signed-cookie.js'
import { ALPHANUMERIC, randomToken, sha256Hex } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'

export const RELAY_STATE_LIFETIME_MS = 5 * 60 * 1000

export type SamlFlowData = {
  providerId: string
  requestId: string
  callbackURL: string
  errorURL: string | null
  newUserURL: string | null
  requestSignUp: boolean
  expiresAt: number
}

export type RelayCookie = { name: string; value: string; sameSite: 'none' | 'lax'; maxAge: number }

const sealingKey = (secret: Secret) => hmacSha256(secret, 'tessera/saml-relay-state/v1')

/** better-auth's cookie name for its SAML relay state. */
export const relayCookieName = (secure: boolean) =>
  secure ? '__Secure-better-auth.relay_state' : 'better-auth.relay_state'

/** A fresh RelayState; the flow is saved once the AuthnRequest (and its ID) is made with it. */
export const newRelayState = (): string => randomToken(32, ALPHANUMERIC)

export const saveRelayState = async (
  ctx: CommandContext,
  relayState: string,
  flow: Omit<SamlFlowData, 'expiresAt'>,
): Promise<RelayCookie> => {
  const now = ctx.clock().getTime()
  const data: SamlFlowData = { ...flow, expiresAt: now + RELAY_STATE_LIFETIME_MS }
  const stateHash = sha256Hex(relayState)
  await ctx.lookups.oauthStates.forgetExpired(new Date(now))
  await ctx.lookups.oauthStates.save({
    state_hash: stateHash,
    sealed: encryptField(sealingKey(ctx.config.secret), JSON.stringify(data), stateHash),
    expires_at: new Date(data.expiresAt),
  })
  const secure = ctx.sessions.cookieSettings.secure
  return {
    name: relayCookieName(secure),
    value: signCookieValue(relayState, ctx.config.secret),
    sameSite: secure ? 'none' : 'lax',
    maxAge: RELAY_STATE_LIFETIME_MS / 1000,
  }
}

/**
 * The flow, taken once, when the browser brings the cookie of the same RelayState; null otherwise
 * (unknown, used, expired, another browser's). The cookie is checked before the record is taken,
 * so someone posting without it cannot spend the flow.
 */
export const takeRelayState = async (
  ctx: CommandContext,
  relayState: string,
  cookieValue: string | undefined,
): Promise<SamlFlowData | null> => {
  if (!relayState || relayState.length > 256) return null
  const stateHash = sha256Hex(relayState)
  const secrets = acceptedSecrets(ctx.config)
  const found = await ctx.lookups.oauthStates.find(stateHash)
  if (!found || !openFlow(secrets, found.sealed, stateHash)) return null
  const fromCookie = cookieValue ? unsignCookieValue(cookieValue, secrets) : null
  if (fromCookie === null || !sameText(fromCookie, relayState)) return null
  const taken = await ctx.lookups.oauthStates.take(stateHash)
  const data = taken ? openFlow(secrets, taken.sealed, stateHash) : null
  return data && data.expiresAt > ctx.clock().getTime() ? data : null
}

const openFlow = (secrets: readonly Secret[], sealed: string, stateHash: string): SamlFlowData | null => {
  for (const secret of secrets) {
    try {
      const data = JSON.parse(decryptField(sealingKey(secret), sealed, stateHash)) as SamlFlowData
      // An OAuth flow's record opens under another key, never this one; the field says it is ours.
      return typeof data.requestId === 'string' ? data : null
    } catch {
      // Sealed under another of the accepted secrets, under none, or an OAuth flow's record.
    }
  }
  return null
}

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
