/// An authorization grant: one stream per authorization a person gave a client (OAuth 2.1 section
/// 4.1). It starts with a code, becomes active when the code is exchanged, and every refresh rotates
/// its refresh token. Codes and refresh tokens carry the grant's id, so the token endpoint decides
/// against this stream, not a read model: a code used twice, or a spent refresh token presented
/// again, revokes the whole grant (OAuth 2.1 sections 4.1.3 and 4.3.1), on every instance at once.
/// Only SHA-256 hashes of codes and refresh tokens arrive here.

import type { Decider } from '../shared/decider.js'
import { oauthError, sameHash } from './oauth-errors.js'

export const oauthGrantStream = (grantId: string) => `oauth-grant-${grantId}`

/** What the person authorized, and how they had signed in. */
export type GrantTerms = {
  grantId: string
  clientId: string
  userId: string
  /** The Tessera session the person authorized from (end-session ends it). */
  sessionId: string
  scopes: string[]
  redirectUri: string
  nonce: string | null
  /** ISO instant the person signed in (`auth_time`). */
  authTime: string
  /** How they signed in (`amr`: `pwd`, `otp`, ...). */
  amr: string[]
}

export type GrantRevocationReason =
  | 'revoked'
  | 'code-reused'
  | 'refresh-token-reused'
  | 'consent-revoked'
  | 'client-deleted'

export type OAuthGrantEvent =
  | {
      type: 'oauth-grant.code-issued'
      data: GrantTerms & { codeHash: string; codeChallenge: string; expiresAt: string }
    }
  | {
      type: 'oauth-grant.code-exchanged'
      data: {
        grantId: string
        clientId: string
        userId: string
        accessTokenId: string
        /** null when `offline_access` was not granted. */
        refreshTokenHash: string | null
        refreshExpiresAt: string | null
      }
    }
  | {
      type: 'oauth-grant.refreshed'
      data: {
        grantId: string
        clientId: string
        userId: string
        accessTokenId: string
        refreshTokenHash: string
        refreshExpiresAt: string
      }
    }
  | {
      type: 'oauth-grant.revoked'
      data: { grantId: string; clientId: string; userId: string; reason: GrantRevocationReason }
    }

export type OAuthGrantCommand =
  | (GrantTerms & { type: 'issue-code'; codeHash: string; codeChallenge: string; expiresAt: string })
  | {
      type: 'exchange-code'
      clientId: string
      codeHash: string
      redirectUri: string | null
      /** BASE64URL(SHA-256(code_verifier)), computed by the edge; null without a verifier. */
      verifierChallenge: string | null
      accessTokenId: string
      /** Recorded only when the client may refresh and `offline_access` was granted. */
      refreshTokenHash: string
      refreshExpiresAt: string
      clientMayRefresh: boolean
      now: string
    }
  | {
      type: 'refresh'
      clientId: string
      refreshTokenHash: string
      newRefreshTokenHash: string
      refreshExpiresAt: string
      accessTokenId: string
      now: string
    }
  /** `clientId` set: the client revokes (RFC 7009); another client's grant is left alone. */
  | { type: 'revoke-grant'; reason: GrantRevocationReason; clientId?: string; userId?: string }

/// State

export type OAuthGrant =
  | { status: 'none' }
  | { status: 'code-issued'; terms: GrantTerms; codeHash: string; codeChallenge: string; expiresAt: string }
  | {
      status: 'active'
      terms: GrantTerms
      codeHash: string
      refreshTokenHash: string | null
      refreshExpiresAt: string | null
      spent: string[]
    }
  | { status: 'revoked'; terms: GrantTerms; codeHash: string; spent: string[] }

export const initialState = (): OAuthGrant => ({ status: 'none' })

const spentOf = (state: OAuthGrant): string[] =>
  state.status === 'active'
    ? [...state.spent, ...(state.refreshTokenHash ? [state.refreshTokenHash] : [])]
    : state.status === 'revoked'
      ? state.spent
      : []

export const evolve = (state: OAuthGrant, event: OAuthGrantEvent): OAuthGrant => {
  switch (event.type) {
    case 'oauth-grant.code-issued': {
      const { codeHash, codeChallenge, expiresAt, ...terms } = event.data
      return { status: 'code-issued', terms, codeHash, codeChallenge, expiresAt }
    }
    case 'oauth-grant.code-exchanged':
      return state.status !== 'code-issued'
        ? state
        : {
            status: 'active',
            terms: state.terms,
            codeHash: state.codeHash,
            refreshTokenHash: event.data.refreshTokenHash,
            refreshExpiresAt: event.data.refreshExpiresAt,
            spent: [],
          }
    case 'oauth-grant.refreshed':
      return state.status !== 'active'
        ? state
        : {
            ...state,
            spent: spentOf(state),
            refreshTokenHash: event.data.refreshTokenHash,
            refreshExpiresAt: event.data.refreshExpiresAt,
          }
    case 'oauth-grant.revoked':
      return state.status === 'none'
        ? state
        : { status: 'revoked', terms: state.terms, codeHash: state.codeHash, spent: spentOf(state) }
  }
}

/// Decide

const badGrant = (description: string) => oauthError('invalid_grant', description)

const revoked = (terms: GrantTerms, reason: GrantRevocationReason): OAuthGrantEvent => ({
  type: 'oauth-grant.revoked',
  data: { grantId: terms.grantId, clientId: terms.clientId, userId: terms.userId, reason },
})

const exchange = (command: Extract<OAuthGrantCommand, { type: 'exchange-code' }>, state: OAuthGrant) => {
  if (state.status === 'none' || !sameHash(state.codeHash, command.codeHash)) throw badGrant('invalid code')
  if (state.terms.clientId !== command.clientId) throw badGrant('invalid code')
  // The code was used before: whoever holds it now may have stolen it, so what it gave goes too.
  if (state.status === 'active') return [revoked(state.terms, 'code-reused')]
  if (state.status === 'revoked') throw badGrant('invalid code')
  if (Date.parse(state.expiresAt) <= Date.parse(command.now)) throw badGrant('code expired')
  if (command.redirectUri !== state.terms.redirectUri) throw badGrant('redirect_uri mismatch')
  if (command.verifierChallenge === null || !sameHash(command.verifierChallenge, state.codeChallenge))
    throw badGrant('code verification failed')
  const { grantId, clientId, userId, scopes } = state.terms
  const { accessTokenId } = command
  const offline = command.clientMayRefresh && scopes.includes('offline_access')
  const refreshTokenHash = offline ? command.refreshTokenHash : null
  const refreshExpiresAt = offline ? command.refreshExpiresAt : null
  return [
    {
      type: 'oauth-grant.code-exchanged' as const,
      data: { grantId, clientId, userId, accessTokenId, refreshTokenHash, refreshExpiresAt },
    },
  ]
}

const refresh = (command: Extract<OAuthGrantCommand, { type: 'refresh' }>, state: OAuthGrant) => {
  if (state.status !== 'active' && state.status !== 'revoked') throw badGrant('invalid refresh token')
  if (state.terms.clientId !== command.clientId) throw badGrant('invalid refresh token')
  const presented = command.refreshTokenHash
  if (state.status === 'revoked') throw badGrant('invalid refresh token')
  // The current token first: every refresh token is fresh from the CSPRNG, so the current one is
  // never among the spent, and a use in turn (nearly every refresh) is not compared with each token
  // the grant ever spent (a long-lived grant spends one per refresh).
  if (state.refreshTokenHash === null || !sameHash(state.refreshTokenHash, presented)) {
    // A spent token presented again: the token was copied; the grant ends for both holders.
    if (state.spent.some((hash) => sameHash(hash, presented)))
      return [revoked(state.terms, 'refresh-token-reused')]
    throw badGrant('invalid refresh token')
  }
  if (state.refreshExpiresAt && Date.parse(state.refreshExpiresAt) <= Date.parse(command.now))
    throw badGrant('refresh token expired')
  const { grantId, clientId, userId } = state.terms
  return [
    {
      type: 'oauth-grant.refreshed' as const,
      data: {
        grantId,
        clientId,
        userId,
        accessTokenId: command.accessTokenId,
        refreshTokenHash: command.newRefreshTokenHash,
        refreshExpiresAt: command.refreshExpiresAt,
      },
    },
  ]
}

export const decide = (command: OAuthGrantCommand, state: OAuthGrant): OAuthGrantEvent[] => {
  switch (command.type) {
    case 'issue-code': {
      if (state.status !== 'none') return []
      const { type: _type, ...data } = command
      return [{ type: 'oauth-grant.code-issued', data }]
    }
    case 'exchange-code':
      return exchange(command, state)
    case 'refresh':
      return refresh(command, state)
    case 'revoke-grant': {
      if (state.status === 'none' || state.status === 'revoked') return []
      if (command.clientId !== undefined && command.clientId !== state.terms.clientId) return []
      if (command.userId !== undefined && command.userId !== state.terms.userId) return []
      return [revoked(state.terms, command.reason)]
    }
  }
}

export const oauthGrantDecider: Decider<OAuthGrantCommand, OAuthGrantEvent, OAuthGrant> = {
  decide,
  evolve,
  initialState,
}
