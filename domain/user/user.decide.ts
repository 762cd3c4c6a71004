/// Every rule of the user aggregate. Pure: time, ids, hashes and check results come in commands.

import { AUTH_ERRORS } from '../errors.js'
import { parseEmail } from './email.js'
import { type AdminUpdateUserCommand, judgedAdminUpdate } from './user.admin-update.js'
import type { OwnerProof, UserCommand } from './user.commands.js'
import type { UserEvent } from './user.events.js'
import { decidePasswordless } from './user.passwordless.js'
import { register } from './user.register.js'
import type { ActiveUser, PendingToken, User } from './user.state.js'
import { parseUsername } from './username.js'

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

const updateProfile = (command: Command<'update-profile'>, user: ActiveUser): UserEvent[] => {
  const fields = [command.name, command.image, command.username, command.displayUsername]
  if (fields.every((field) => field === undefined)) throw AUTH_ERRORS.error('NO_FIELDS_TO_UPDATE')
  // Checked before anything changes: a bad username refuses the whole update (400).
  const username =
    command.username === undefined
      ? user.username
      : parseUsername(command.username, 'profile', command.usernameLimits)
  const name = command.name?.trim()
  const changes = {
    ...(name !== undefined && name !== user.name ? { name } : {}),
    ...(command.image !== undefined && command.image !== user.image ? { image: command.image } : {}),
  }
  const events: UserEvent[] =
    Object.keys(changes).length === 0
      ? []
      : [{ type: 'user.profile-updated', data: { userId: user.userId, ...changes } }]
  // As better-auth: a new username leaves the display form alone unless one is given with it.
  const displayUsername = command.displayUsername ?? user.displayUsername
  if (username === user.username && displayUsername === user.displayUsername) return events
  return [
    ...events,
    {
      type: 'user.username-changed',
      data: { userId: user.userId, username, displayUsername, previousUsername: user.username },
    },
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

const ban = (command: Command<'ban-user'>, user: ActiveUser): UserEvent[] => {
  if (command.operatorId === user.userId) throw AUTH_ERRORS.error('YOU_CANNOT_BAN_YOURSELF')
  const { reason, expiresAt } = command
  return [{ type: 'user.banned', data: { userId: user.userId, reason, expiresAt } }]
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

/** ADMIN_EMAILS grants once per account: an admin who later demotes it is not overruled. */
const setRole = (command: Command<'set-role'>, user: ActiveUser): UserEvent[] => {
  if (command.grantedBy === 'admin-emails' && user.adminEmailsGrantApplied) return []
  const grantedBy = command.grantedBy ? { grantedBy: command.grantedBy } : {}
  if (command.role === user.role && !command.grantedBy) return []
  return [
    {
      type: 'user.role-set',
      data: { userId: user.userId, role: command.role, previousRole: user.role, ...grantedBy },
    },
  ]
}

// Lifting clears the reason and end too, as better-auth's unban-user does, even when only they were set.
const unban = (user: ActiveUser): UserEvent[] => {
  const { userId } = user
  if (user.banned) return [{ type: 'user.unbanned', data: { userId, expired: false } }]
  if (user.banReason === null && user.banExpires === null) return []
  return [{ type: 'user.ban-details-set', data: { userId, reason: null, expiresAt: null } }]
}

const adminUpdateBan = (command: Command<'admin-update-ban'>, user: ActiveUser): UserEvent[] => {
  const { userId } = user
  const given = <T>(value: T | undefined, stored: T): T => (value === undefined ? stored : value)
  if (command.banned === true) {
    const reason = given(command.reason, user.banReason)
    const expiresAt = given(command.expiresAt, user.banExpires)
    return [{ type: 'user.banned', data: { userId, reason, expiresAt } }]
  }
  const lifts = command.banned === false && user.banned
  const lifted: UserEvent[] = lifts ? [{ type: 'user.unbanned', data: { userId, expired: false } }] : []
  const stored = lifts
    ? { reason: null, expiresAt: null }
    : { reason: user.banReason, expiresAt: user.banExpires }
  const reason = given(command.reason, stored.reason)
  const expiresAt = given(command.expiresAt, stored.expiresAt)
  if (reason === stored.reason && expiresAt === stored.expiresAt) return lifted
  return [...lifted, { type: 'user.ban-details-set', data: { userId, reason, expiresAt } }]
}

const liftExpiredBan = (command: Command<'lift-expired-ban'>, user: ActiveUser): UserEvent[] => {
  const expiresAt = user.banned ? user.banExpires : null
  if (!expiresAt || Date.parse(expiresAt) > Date.parse(command.now)) return []
  return [{ type: 'user.unbanned', data: { userId: user.userId, expired: true } }]
}

// An operator's password needs no proof: it replaces the one there is, or gives the first one.
const adminSetPassword = (command: Command<'admin-set-password'>, user: ActiveUser): UserEvent[] => {
  const { userId } = user
  if (user.credential)
    return [{ type: 'user.password-changed', data: { userId, passwordHash: command.passwordHash } }]
  return [
    {
      type: 'user.password-set',
      data: { userId, accountId: command.accountId, passwordHash: command.passwordHash },
    },
  ]
}

const adminSetEmail = (command: Command<'admin-set-email'>, user: ActiveUser): UserEvent[] => {
  const email = parseEmail(command.newEmail)
  const { userId } = user
  if (email === user.email) {
    if (command.emailVerified && !user.emailVerified)
      return [{ type: 'user.email-verified', data: { userId, email } }]
    return []
  }
  return [
    {
      type: 'user.email-changed',
      data: { userId, previousEmail: user.email, email, emailVerified: command.emailVerified },
    },
  ]
}

/**
 * update-user, judged whole (user.admin-update.ts) and then told as the events of each part: the
 * address, the profile, the role, the ban fields. The parts touch disjoint fields, so each is
 * decided on the same state; they are appended together, so none lands without the others.
 */
const adminUpdateUser = (command: AdminUpdateUserCommand, state: User): UserEvent[] => {
  const update = judgedAdminUpdate(command)
  if (state.status !== 'active') throw AUTH_ERRORS.error('USER_NOT_FOUND')
  const { email, emailVerified, name, image, role, banned, banReason, banExpires } = update
  const address =
    email === undefined && emailVerified === undefined
      ? []
      : adminSetEmail(
          {
            type: 'admin-set-email',
            newEmail: email ?? state.email,
            emailVerified: emailVerified ?? state.emailVerified,
          },
          state,
        )
  const profile =
    name === undefined && image === undefined
      ? []
      : updateProfile(
          {
            type: 'update-profile',
            ...(name !== undefined ? { name } : {}),
            ...(image !== undefined ? { image } : {}),
          },
          state,
        )
  const roleSet = role === undefined ? [] : setRole({ type: 'set-role', role }, state)
  const ban = { banned, reason: banReason, expiresAt: banExpires }
  const anyBan = banned !== undefined || banReason !== undefined || banExpires !== undefined
  const bans = anyBan ? adminUpdateBan({ type: 'admin-update-ban', ...definedOnly(ban) }, state) : []
  return [...address, ...profile, ...roleSet, ...bans]
}

const definedOnly = <T extends Record<string, unknown>>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>
