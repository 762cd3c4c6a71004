/// The user aggregate: the person's identity and their credential (email + password) account.
/// Stream: `user-<id>`. Email and username uniqueness are store-level claims (`user.email`,
/// `user.username`), not rules here.

import { AUTH_ERRORS } from '../errors.js'
import type { Decider } from '../shared/decider.js'
import type { DomainError } from '../shared/errors.js'
import type { UserCommand } from './user.commands.js'
import { decideUser, MAX_OUTSTANDING_TOKENS } from './user.decide.js'
import type { UserEvent } from './user.events.js'
import { type ActiveUser, initialState, type PendingToken, type User } from './user.state.js'

export type { UserCommand } from './user.commands.js'
export type { CredentialAccount, UserEvent } from './user.events.js'
export { type ActiveUser, initialState, type PendingToken, type User } from './user.state.js'

export const userStream = (userId: string): string => `user-${userId}`

export const EMAIL_CLAIM_SCOPE = 'user.email'
export const USERNAME_CLAIM_SCOPE = 'user.username'

/** The answer when the store refuses a claim: someone else holds that email or username. */
export const claimConflictError = (scope: string): DomainError =>
  scope === USERNAME_CLAIM_SCOPE
    ? AUTH_ERRORS.error('USERNAME_IS_ALREADY_TAKEN')
    : AUTH_ERRORS.error('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')

/// State

// See MAX_OUTSTANDING_TOKENS: the oldest link goes first.

const withNewest = (tokens: PendingToken[], token: PendingToken): PendingToken[] =>
  [...tokens, token].slice(-MAX_OUTSTANDING_TOKENS)

/// Evolve: no rules, never throws

/**
 * A new password (changed, reset, set) or a ban voids every reset and deletion link outstanding:
 * a link mailed before it must not outlive it (an attacker who asked for a reset before the owner
 * changed the password would otherwise keep a working link for its whole hour). The decider's
 * token checks accept only the links still listed, so a link issued before such an event is
 * refused as INVALID_TOKEN; an erasure ends the account, and every link with it.
 */
const withoutLinks = (user: ActiveUser): ActiveUser => ({ ...user, resetTokens: [], deletionTokens: [] })

const evolveActive = (user: ActiveUser, event: UserEvent): User => {
  switch (event.type) {
    case 'user.email-verified':
      return { ...user, emailVerified: true }
    case 'user.password-reset-requested':
      return {
        ...user,
        resetTokens: withNewest(user.resetTokens, {
          tokenHash: event.data.tokenHash,
          expiresAt: event.data.expiresAt,
        }),
      }
    case 'user.password-reset':
      return {
        ...withoutLinks(user),
        credential: {
          accountId: user.credential?.accountId ?? event.data.userId,
          passwordHash: event.data.passwordHash,
        },
      }
    case 'user.password-changed':
      return user.credential
        ? { ...withoutLinks(user), credential: { ...user.credential, passwordHash: event.data.passwordHash } }
        : withoutLinks(user)
    case 'user.password-set':
      return {
        ...withoutLinks(user),
        credential: { accountId: event.data.accountId, passwordHash: event.data.passwordHash },
      }
    case 'user.password-removed':
      return { ...user, credential: null }
    case 'user.profile-updated': {
      const { name, image } = event.data
      return { ...user, ...(name !== undefined ? { name } : {}), ...(image !== undefined ? { image } : {}) }
    }
    case 'user.username-changed':
      return { ...user, username: event.data.username, displayUsername: event.data.displayUsername }
    case 'user.email-change-confirmed':
      return { ...user, confirmedNewEmail: event.data.newEmail }
    case 'user.email-changed':
      return {
        ...user,
        email: event.data.email,
        emailVerified: event.data.emailVerified,
        confirmedNewEmail: null,
        // Links mailed to the old address must not work once it is no longer the account's.
        resetTokens: [],
        deletionTokens: [],
      }
    case 'user.deletion-requested':
      return {
        ...user,
        deletionTokens: withNewest(user.deletionTokens, {
          tokenHash: event.data.tokenHash,
          expiresAt: event.data.expiresAt,
        }),
      }
    case 'user.token-discarded': {
      const keep = (token: PendingToken) => token.tokenHash !== event.data.tokenHash
      return {
        ...user,
        resetTokens: user.resetTokens.filter(keep),
        deletionTokens: user.deletionTokens.filter(keep),
      }
    }
    case 'user.sign-in-failed':
      return { ...user, lastSignInFailureAt: event.data.failedAt }
    case 'user.role-set':
      return {
        ...user,
        role: event.data.role,
        adminEmailsGrantApplied: user.adminEmailsGrantApplied || event.data.grantedBy === 'admin-emails',
      }
    case 'user.banned':
      return {
        ...withoutLinks(user),
        banned: true,
        banReason: event.data.reason,
        banExpires: event.data.expiresAt,
      }
    case 'user.ban-details-set':
      return { ...user, banReason: event.data.reason, banExpires: event.data.expiresAt }
    case 'user.unbanned':
      return { ...user, banned: false, banReason: null, banExpires: null }
    case 'user.deleted':
      return { status: 'deleted', userId: user.userId }
    default:
      return user
  }
}

export const evolve = (state: User, event: UserEvent): User => {
  if (event.type === 'user.registered') {
    const { userId, email, name, image, emailVerified, credential, username, displayUsername } = event.data
    return {
      status: 'active',
      userId,
      email,
      name,
      image,
      emailVerified,
      username: username ?? null,
      displayUsername: displayUsername ?? null,
      credential,
      resetTokens: [],
      deletionTokens: [],
      confirmedNewEmail: null,
      lastSignInFailureAt: null,
      role: null,
      banned: false,
      banReason: null,
      banExpires: null,
      adminEmailsGrantApplied: false,
    }
  }
  return state.status === 'active' ? evolveActive(state, event) : state
}

/// Decide: every rule lives in user.decide.ts

export const decide = (command: UserCommand, state: User): UserEvent[] => decideUser(command, state)

export const userDecider: Decider<UserCommand, UserEvent, User> = { decide, evolve, initialState }

/// Unique values this user's events take or give up, applied by the store atomically with them.
export type ClaimRequest = { op: 'claim' | 'release'; scope: string; value: string; owner: string }

export const userClaims = (events: readonly UserEvent[]): ClaimRequest[] =>
  events.flatMap((event): ClaimRequest[] => {
    const claim = (op: ClaimRequest['op'], value: string, scope = EMAIL_CLAIM_SCOPE) => ({
      op,
      scope,
      value,
      owner: event.data.userId,
    })
    const username = (op: ClaimRequest['op'], value: string | null | undefined) =>
      value ? [claim(op, value, USERNAME_CLAIM_SCOPE)] : []
    switch (event.type) {
      case 'user.registered':
        return [claim('claim', event.data.email), ...username('claim', event.data.username)]
      case 'user.email-changed':
        return [claim('release', event.data.previousEmail), claim('claim', event.data.email)]
      case 'user.username-changed': {
        const { previousUsername, username: next } = event.data
        if (previousUsername === next) return []
        return [...username('release', previousUsername), ...username('claim', next)]
      }
      case 'user.deleted':
        return [claim('release', event.data.email), ...username('release', event.data.username)]
      default:
        return []
    }
  })
