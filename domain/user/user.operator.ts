/// What operators do to an account (the admin plugin's routes): the role, a ban and its details,
/// a password or an address set for the person, and update-user judged whole.

import { AUTH_ERRORS } from '../errors.js'
import { parseEmail } from './email.js'
import { type AdminUpdateUserCommand, judgedAdminUpdate } from './user.admin-update.js'
import type { UserCommand } from './user.commands.js'
import type { UserEvent } from './user.events.js'
import { updateProfile } from './user.profile.js'
import type { ActiveUser, User } from './user.state.js'

type Command<T extends UserCommand['type']> = Extract<UserCommand, { type: T }>

export const ban = (command: Command<'ban-user'>, user: ActiveUser): UserEvent[] => {
  if (command.operatorId === user.userId) throw AUTH_ERRORS.error('YOU_CANNOT_BAN_YOURSELF')
  const { reason, expiresAt } = command
  return [{ type: 'user.banned', data: { userId: user.userId, reason, expiresAt } }]
}

/** ADMIN_EMAILS grants once per account: an admin who later demotes it is not overruled. */
export const setRole = (command: Command<'set-role'>, user: ActiveUser): UserEvent[] => {
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
export const unban = (user: ActiveUser): UserEvent[] => {
  const { userId } = user
  if (user.banned) return [{ type: 'user.unbanned', data: { userId, expired: false } }]
  if (user.banReason === null && user.banExpires === null) return []
  return [{ type: 'user.ban-details-set', data: { userId, reason: null, expiresAt: null } }]
}

export const adminUpdateBan = (command: Command<'admin-update-ban'>, user: ActiveUser): UserEvent[] => {
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

export const liftExpiredBan = (command: Command<'lift-expired-ban'>, user: ActiveUser): UserEvent[] => {
  const expiresAt = user.banned ? user.banExpires : null
  if (!expiresAt || Date.parse(expiresAt) > Date.parse(command.now)) return []
  return [{ type: 'user.unbanned', data: { userId: user.userId, expired: true } }]
}

// An operator's password needs no proof: it replaces the one there is, or gives the first one.
export const adminSetPassword = (command: Command<'admin-set-password'>, user: ActiveUser): UserEvent[] => {
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

export const adminSetEmail = (command: Command<'admin-set-email'>, user: ActiveUser): UserEvent[] => {
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
export const adminUpdateUser = (command: AdminUpdateUserCommand, state: User): UserEvent[] => {
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
