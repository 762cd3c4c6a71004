/// A person's consent to a client: one stream per person and client. Each grant of consent records
/// the scope set agreed to; its revocation (from the portal's "Connected applications") also ends
/// the client's grants, which the use case does grant by grant.

import type { Decider } from '../shared/decider.js'
import { oauthError } from './oauth-errors.js'

export const oauthConsentStream = (userId: string, clientId: string) => `oauth-consent-${userId}:${clientId}`

export type OAuthConsentEvent =
  | {
      type: 'oauth-consent.granted'
      data: { userId: string; clientId: string; scopes: string[]; at: string }
    }
  | { type: 'oauth-consent.revoked'; data: { userId: string; clientId: string } }

export type OAuthConsentCommand =
  | { type: 'grant-consent'; userId: string; clientId: string; scopes: string[]; now: string }
  | { type: 'revoke-consent'; userId: string; clientId: string }
  /** The person changes the scopes they agreed to (`/oauth2/update-consent`), within what the client may ask. */
  | {
      type: 'update-consent'
      userId: string
      clientId: string
      scopes: string[]
      allowedScopes: readonly string[]
      now: string
    }

export type OAuthConsent = { status: 'none' | 'revoked' } | { status: 'granted'; scopes: string[] }

export const initialState = (): OAuthConsent => ({ status: 'none' })

export const evolve = (_state: OAuthConsent, event: OAuthConsentEvent): OAuthConsent =>
  event.type === 'oauth-consent.granted'
    ? { status: 'granted', scopes: event.data.scopes }
    : { status: 'revoked' }

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((scope) => b.includes(scope))

export const decide = (command: OAuthConsentCommand, state: OAuthConsent): OAuthConsentEvent[] => {
  const { userId, clientId } = command
  if (command.type === 'grant-consent') {
    // Agreeing again to the very same scopes changes nothing.
    if (state.status === 'granted' && sameSet(state.scopes, command.scopes)) return []
    return [
      { type: 'oauth-consent.granted', data: { userId, clientId, scopes: command.scopes, at: command.now } },
    ]
  }
  if (state.status !== 'granted') throw oauthError('not_found', 'no consent')
  if (command.type === 'revoke-consent')
    return [{ type: 'oauth-consent.revoked', data: { userId, clientId } }]
  const { scopes, allowedScopes, now } = command
  if (!scopes.every((scope) => allowedScopes.includes(scope)))
    throw oauthError('invalid_request', `unable to provide scopes to ${clientId}`)
  if (sameSet(state.scopes, scopes)) return []
  return [{ type: 'oauth-consent.granted', data: { userId, clientId, scopes, at: now } }]
}

export const oauthConsentDecider: Decider<OAuthConsentCommand, OAuthConsentEvent, OAuthConsent> = {
  decide,
  evolve,
  initialState,
}
