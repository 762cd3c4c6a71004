/// The magic-link aggregate: one sign-in link mailed to an address (better-auth's magicLink plugin).
/// Its stream is named by the SHA-256 of the link's token, so following a link reads exactly its
/// own history and the token itself is never stored. A link is used at most once (the stream's
/// optimistic concurrency lets one of two racing clicks win) and never after it expired.

import { AUTH_ERRORS } from '../errors.js'
import type { Decider } from '../shared/decider.js'

/// Events

export type MagicLinkRequest = {
  tokenHash: string
  /** Derives the token in the mail reactor (infra/crypto/derived-tokens.ts); not a secret alone. */
  requestId: string
  email: string
  /** The name a new account gets when the link signs one up. */
  name: string | null
  callbackURL: string
  newUserCallbackURL: string | null
  errorCallbackURL: string | null
  expiresAt: string
  /** The account the address had when the link was asked for, if any: the events' subject. */
  userId: string | null
  /** The address's own key id (an HMAC of it), the subject when there was no account. */
  addressSubject: string
}

export type MagicLinkEvent =
  | { type: 'magic-link.requested'; data: MagicLinkRequest }
  | { type: 'magic-link.used'; data: { tokenHash: string; usedAt: string } }

/// Commands

export type MagicLinkCommand =
  | ({ type: 'request-magic-link' } & MagicLinkRequest)
  | { type: 'use-magic-link'; tokenHash: string; now: string }

/// State

export type MagicLink = { status: 'none' } | ({ status: 'pending' | 'used' } & MagicLinkRequest)

export const initialState = (): MagicLink => ({ status: 'none' })

/// Evolve: no rules, never throws

export const evolve = (state: MagicLink, event: MagicLinkEvent): MagicLink => {
  switch (event.type) {
    case 'magic-link.requested':
      return { status: 'pending', ...event.data }
    case 'magic-link.used':
      return state.status === 'none' ? state : { ...state, status: 'used' }
    default:
      return state
  }
}

/// Decide

export const decide = (command: MagicLinkCommand, state: MagicLink): MagicLinkEvent[] => {
  switch (command.type) {
    case 'request-magic-link': {
      // A fresh CSPRNG token names a fresh stream; a collision would be a bug, never a reuse.
      if (state.status !== 'none') throw AUTH_ERRORS.error('INVALID_TOKEN')
      const { type: _type, ...request } = command
      return [{ type: 'magic-link.requested', data: request }]
    }
    case 'use-magic-link': {
      // Unknown, used and expired links read alike: better-auth answers INVALID_TOKEN for all three.
      if (state.status !== 'pending') throw AUTH_ERRORS.error('INVALID_TOKEN')
      if (Date.parse(state.expiresAt) <= Date.parse(command.now)) throw AUTH_ERRORS.error('INVALID_TOKEN')
      return [{ type: 'magic-link.used', data: { tokenHash: command.tokenHash, usedAt: command.now } }]
    }
    default: {
      const unreachable: never = command
      throw unreachable
    }
  }
}

export const magicLinkDecider: Decider<MagicLinkCommand, MagicLinkEvent, MagicLink> = {
  decide,
  evolve,
  initialState,
}

export const magicLinkStream = (tokenHash: string): string => `magic-link-${tokenHash}`
