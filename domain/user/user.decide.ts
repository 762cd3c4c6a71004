/// The user aggregate's decider. Pure: time, ids, hashes and check results come in commands. Registration,
/// the profile, operators' changes and the passwordless ways have their own files (user.*.ts).

import { AUTH_ERRORS } from '../errors.js'
import { parseEmail } from './email.js'
import type { OwnerProof, UserCommand } from './user.commands.js'
import type { UserEvent } from './user.events.js'
import {
  adminSetEmail,
  adminSetPassword,
  adminUpdateBan,
  adminUpdateUser,
  ban,
  liftExpiredBan,
  setRole,
  unban,
} from './user.operator.js'
import { decidePasswordless } from './user.passwordless.js'
import { updateProfile } from './user.profile.js'
import { register } from './user.register.js'
import type { ActiveUser, PendingToken, User } from './user.state.js'

type Command<T extends UserCommand['type']> = Extract<UserCommand, { type: T }>

export const decideUser = (command: UserCommand, state: User): UserEvent[] => {
  if (command.type === 'register-user') return register(command, state)
  if (command.type === 'admin-update-user') return adminUpdateUser(command, state)
  if (state.status !== 'active') throw AUTH_ERRORS.error('USER_NOT_FOUND')
  switch (command.type) {
    case 'request-verification-email':
      return requestVerification(command, state)
    case 'verify-email':
      return verifyEmail(command, state)
    case 'request-password-reset': {
      if (liveCount(state.resetTokens, command.now) >= MAX_OUTSTANDING_TOKENS) return []
      const { now: _now, ...request } = withoutType(command)
      return [
        {
          type: 'user.password-reset-requested',
          data: { userId: state.userId, email: state.email, ...request },
        },
      ]
    }
    case 'reset-password':
      return resetPassword(command, state)
    case 'change-password':
      return changePassword(command, state)
    case 'set-password':
      if (state.credential) throw AUTH_ERRORS.error('PASSWORD_ALREADY_SET')
      return [{ type: 'user.password-set', data: { userId: state.userId, ...withoutType(command) } }]
    case 'remove-password':
      return removePassword(command, state)
    case 'update-profile':
      return updateProfile(command, state)
    case 'change-email':
      return changeEmail(command, state)
    case 'confirm-email-change':
      return confirmEmailChange(command, state)
    case 'complete-email-change':
      return completeEmailChange(command, state)
    case 'request-deletion': {
      refuseUnproven(command.proof, state)
      if (liveCount(state.deletionTokens, command.now) >= MAX_OUTSTANDING_TOKENS) return []
      const { now: _now, proof: _proof, ...request } = withoutType(command)
      return [
        { type: 'user.deletion-requested', data: { userId: state.userId, email: state.email, ...request } },
      ]
    }
    case 'delete-user':
      return deleteUser(command, state)
    case 'discard-token':
      return discardToken(command, state)
    case 'record-sign-in-failure':
      return recordSignInFailure(command, state)
    case 'set-role':
      return setRole(command, state)
    case 'ban-user':
      return ban(command, state)
    case 'admin-update-ban':
      return adminUpdateBan(command, state)
    case 'unban-user':
      return unban(state)
    case 'lift-expired-ban':
      return liftExpiredBan(command, state)
    case 'admin-set-password':
      return adminSetPassword(command, state)
    case 'admin-set-email':
      return adminSetEmail(command, state)
    case 'prove-address-by-mail':
    case 'reset-password-by-code':
    case 'change-email-by-code':
      return decidePasswordless(command, state)
  }
}

const withoutType = <C extends { type: string }>({ type: _type, ...rest }: C): Omit<C, 'type'> => rest

const isLive = (token: PendingToken, tokenHash: string, now: string) =>
  token.tokenHash === tokenHash && Date.parse(token.expiresAt) > Date.parse(now)

/**
 * At most this many reset (and, separately, deletion) links are outstanding: a new one pushes out
 * the oldest (user.ts), and while this many are still live a further request records nothing, so
 * neither the list nor the stream grows however often someone asks. The answer stays the same.
 */
export const MAX_OUTSTANDING_TOKENS = 3

const liveCount = (tokens: readonly PendingToken[], now: string) =>
  tokens.filter((token) => Date.parse(token.expiresAt) > Date.parse(now)).length

// better-auth counts the accounts first: the last one is refused before the id is even looked at.
const removePassword = (command: Command<'remove-password'>, user: ActiveUser): UserEvent[] => {
  // better-auth's fresh-session rule comes before every other answer of unlink-account.
  if (!command.sessionFresh) throw AUTH_ERRORS.error('SESSION_NOT_FRESH')
  const accounts = command.otherAccounts + (user.credential ? 1 : 0)
  if (accounts <= 1 && !command.allowUnlinkingAll) throw AUTH_ERRORS.error('FAILED_TO_UNLINK_LAST_ACCOUNT')
  if (!user.credential) throw AUTH_ERRORS.error('ACCOUNT_NOT_FOUND')
  return [
    { type: 'user.password-removed', data: { userId: user.userId, accountId: user.credential.accountId } },
  ]
}

// A request for someone else's address, or an already verified one, sends nothing.
const requestVerification = (
  command: Command<'request-verification-email'>,
  user: ActiveUser,
): UserEvent[] => {
  if (parseEmail(command.email) !== user.email) throw AUTH_ERRORS.error('EMAIL_MISMATCH')
  if (user.emailVerified) throw AUTH_ERRORS.error('EMAIL_ALREADY_VERIFIED')
  return [
    {
      type: 'user.verification-email-requested',
      data: { userId: user.userId, email: user.email, callbackURL: command.callbackURL },
    },
  ]
}

const verifyEmail = (command: Command<'verify-email'>, user: ActiveUser): UserEvent[] => {
  // A link for an address the user no longer has proves nothing.
  if (command.email !== user.email) throw AUTH_ERRORS.error('INVALID_TOKEN')
  if (user.emailVerified) return []
  return [{ type: 'user.email-verified', data: { userId: user.userId, email: user.email } }]
}

const resetPassword = (command: Command<'reset-password'>, user: ActiveUser): UserEvent[] => {
  if (!user.resetTokens.some((token) => isLive(token, command.tokenHash, command.now)))
    throw AUTH_ERRORS.error('INVALID_TOKEN')
  if (command.sameAsCurrent) throw AUTH_ERRORS.error('PASSWORD_SAME_AS_CURRENT')
  return [
    {
      type: 'user.password-reset',
      data: { userId: user.userId, tokenHash: command.tokenHash, passwordHash: command.passwordHash },
    },
  ]
}

const changePassword = (command: Command<'change-password'>, user: ActiveUser): UserEvent[] => {
  if (!user.credential) throw AUTH_ERRORS.error('CREDENTIAL_ACCOUNT_NOT_FOUND')
  if (!command.currentPasswordMatches) throw AUTH_ERRORS.error('INVALID_PASSWORD')
  // Nothing would change, yet "sign out my other devices" would still end them: refuse.
  if (command.sameAsCurrent) throw AUTH_ERRORS.error('PASSWORD_SAME_AS_CURRENT')
  return [
    { type: 'user.password-changed', data: { userId: user.userId, passwordHash: command.passwordHash } },
  ]
}

/**
 * Unverified: the address changes at once (unverified) and the new one gets a verification mail.
 * Verified: the current address must confirm first, then the new one must verify.
 */
const changeEmail = (command: Command<'change-email'>, user: ActiveUser): UserEvent[] => {
  const newEmail = parseEmail(command.newEmail)
  if (newEmail === user.email) throw AUTH_ERRORS.error('EMAIL_IS_THE_SAME')
  // Neither given away nor revealed: the address is someone else's, so nothing happens.
  if (command.takenByAnother) return []
  const { userId } = user
  if (!user.emailVerified)
    return [
      {
        type: 'user.email-changed',
        data: { userId, previousEmail: user.email, email: newEmail, emailVerified: false },
      },
      {
        type: 'user.verification-email-requested',
        data: { userId, email: newEmail, callbackURL: command.callbackURL },
      },
    ]
  return [
    {
      type: 'user.email-change-requested',
      data: { userId, currentEmail: user.email, newEmail, callbackURL: command.callbackURL },
    },
  ]
}

const confirmEmailChange = (command: Command<'confirm-email-change'>, user: ActiveUser): UserEvent[] => {
  if (command.currentEmail !== user.email) throw AUTH_ERRORS.error('INVALID_TOKEN')
  return [
    {
      type: 'user.email-change-confirmed',
      data: {
        userId: user.userId,
        currentEmail: user.email,
        newEmail: command.newEmail,
        callbackURL: command.callbackURL,
      },
    },
  ]
}

const completeEmailChange = (command: Command<'complete-email-change'>, user: ActiveUser): UserEvent[] => {
  if (user.confirmedNewEmail !== command.newEmail || command.currentEmail !== user.email)
    throw AUTH_ERRORS.error('INVALID_TOKEN')
  return [
    {
      type: 'user.email-changed',
      data: { userId: user.userId, previousEmail: user.email, email: command.newEmail, emailVerified: true },
    },
  ]
}

const refuseUnproven = (proof: OwnerProof, user: ActiveUser): void => {
  if (proof.kind === 'fresh-session') {
    if (!proof.fresh) throw AUTH_ERRORS.error('SESSION_EXPIRED')
    return
  }
  if (!user.credential) throw AUTH_ERRORS.error('CREDENTIAL_ACCOUNT_NOT_FOUND')
  if (!proof.matches) throw AUTH_ERRORS.error('INVALID_PASSWORD')
}

// In this order, as the routes answered: an operator's own account, the proof (password, session
// age), a token that is not one of this person's deletion links (someone else's, or one a new
// password voided), then the organizations it alone owns (Tessera refuses where better-auth would
// leave them ownerless), then a link of theirs that has expired.
const deleteUser = (command: Command<'delete-user'>, user: ActiveUser): UserEvent[] => {
  const { proof } = command
  if (command.operatorId === user.userId) throw AUTH_ERRORS.error('YOU_CANNOT_REMOVE_YOURSELF')
  if (proof.kind === 'password' || proof.kind === 'fresh-session') refuseUnproven(proof, user)
  const link =
    proof.kind === 'token' ? user.deletionTokens.find((token) => token.tokenHash === proof.tokenHash) : null
  if (link === undefined) throw AUTH_ERRORS.error('INVALID_TOKEN')
  if (command.soleOwnerOf?.length) throw AUTH_ERRORS.error('ONLY_OWNER_OF_AN_ORGANIZATION')
  if (link && proof.kind === 'token' && !isLive(link, proof.tokenHash, proof.now))
    throw AUTH_ERRORS.error('INVALID_TOKEN')
  const { userId, email, username, name } = user
  const alsoErases = command.alsoErases?.length ? { alsoErases: [...command.alsoErases] } : {}
  const deleted: UserEvent = {
    type: 'user.deleted',
    data: { userId, email, ...(username !== null ? { username } : {}), ...alsoErases },
  }
  if (command.noticeId === undefined) return [deleted]
  return [
    deleted,
    { type: 'user.deletion-notice-requested', data: { userId, noticeId: command.noticeId, email, name } },
  ]
}

// Only a token that exists and has expired is discarded; anything else is left alone.
const discardToken = (command: Command<'discard-token'>, user: ActiveUser): UserEvent[] => {
  const token = [...user.resetTokens, ...user.deletionTokens].find((t) => t.tokenHash === command.tokenHash)
  if (!token || Date.parse(token.expiresAt) > Date.parse(command.now)) return []
  return [{ type: 'user.token-discarded', data: { userId: user.userId, tokenHash: command.tokenHash } }]
}

/** At most one recorded failure a minute: a burst of guesses reads as one entry, and an attack
 *  cannot grow the log faster than that. */
const SIGN_IN_FAILURE_INTERVAL_MS = 60_000

const recordSignInFailure = (command: Command<'record-sign-in-failure'>, user: ActiveUser): UserEvent[] => {
  const last = user.lastSignInFailureAt
  if (last !== null && Date.parse(command.now) - Date.parse(last) < SIGN_IN_FAILURE_INTERVAL_MS) return []
  return [{ type: 'user.sign-in-failed', data: { userId: user.userId, failedAt: command.now } }]
}
