/// What operators do to users (better-auth's admin plugin): create, update, set roles, ban and
/// unban, set a password, remove. Every action is an event on the user's stream with the operator
/// (or the server key) as actor; a removed user is erased like one who deleted their own account.

import type { PermissionRequest } from '../../domain/admin/permissions.js'
import { AUTH_ERRORS, errorWithStatus } from '../../domain/errors.js'
import type { Actor, RequestOrigin } from '../../domain/shared/metadata.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import { assertPasswordPolicy } from '../../domain/user/password-policy.js'
import { claimConflictError, type UserCommand } from '../../domain/user/user.js'
import { type AdminCaller, callerMay } from '../../http/guards/admin-caller.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import { hashPassword } from '../../infra/crypto/password.js'
import { newId } from '../../infra/crypto/tokens.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { passwordLimits } from '../email-password/sign-up.js'
import { afterAccountDeletion, beforeAccountDeletion } from '../organization/account-deletion.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { claimsInUse } from '../username/claims-in-use.js'
import { usernameLimits } from '../username/username-limits.js'

export type RoleInput = string | readonly string[]

export { checkedRoles } from '../../domain/user/user.admin-update.js'

export const existingUser = async (ctx: CommandContext, userId: string): Promise<KnownUser> => {
  const user = await ctx.lookups.users.byId(userId)
  if (!user) throw AUTH_ERRORS.error('USER_NOT_FOUND')
  return user
}

const reread = (ctx: CommandContext, userId: string) => existingUser(ctx, userId)

/** update-user's and create-user's ban fields, as given (`banExpires` an ISO date). */
export type BanFieldsInput = { banned?: boolean; banReason?: string | null; banExpires?: string | null }

/** What create-user's `data` may set besides the role. */
export type CreatedUserFields = {
  image?: string | null
  emailVerified?: boolean
  username?: string
  displayUsername?: string
  ban: BanFieldsInput
}

export type CreateUserInput = {
  email: string
  password: string | null
  name: string
  role: string | null
} & Partial<CreatedUserFields>

/** The address or username is someone else's: as better-auth's admin route, both are 400s here. */
const takenError = (error: unknown) => {
  const code =
    error instanceof UniqueClaimConflictError
      ? claimConflictError(error.scope).code
      : (error as { code?: string }).code
  if (code === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
    return errorWithStatus('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', 400)
  if (code === 'USERNAME_IS_ALREADY_TAKEN') return AUTH_ERRORS.error('USERNAME_IS_ALREADY_TAKEN')
  return error
}

export const createUserByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  actor: Actor,
  input: CreateUserInput,
): Promise<KnownUser> => {
  const email = normalizeEmail(input.email)
  // The address's shape (needed to look up its claim) and the password's policy (before its hash).
  if (!isValidEmail(email)) throw AUTH_ERRORS.error('INVALID_EMAIL')
  if (input.password !== null) assertPasswordPolicy(input.password, passwordLimits(ctx))
  // Whether the address and the username are taken: facts for the decider, which refuses.
  const limits = usernameLimits(ctx)
  const inUse = await claimsInUse(ctx, { ...input, email }, limits)
  const userId = newId()
  const credential =
    input.password === null ? null : { accountId: userId, passwordHash: await hashPassword(input.password) }
  const register: UserCommand = {
    type: 'register-user',
    userId,
    email,
    name: input.name,
    image: input.image ?? null,
    credential,
    // The operator vouches for the address (better-auth's data.emailVerified).
    ...(input.emailVerified !== undefined ? { emailVerified: input.emailVerified } : {}),
    sendVerification: false,
    callbackURL: null,
    ...(input.username !== undefined ? { username: input.username } : {}),
    ...(input.displayUsername !== undefined ? { displayUsername: input.displayUsername } : {}),
    usernameLimits: limits,
    inUse,
  }
  try {
    await runUserCommand(ctx, origin, userId, register, actor)
  } catch (error) {
    // Taken (or two creations racing for one address or username, which the store's claim settles):
    // as better-auth's admin route, an address in use is a 400 here (sign-up says 422).
    throw takenError(error)
  }
  if (input.role !== null)
    await runUserCommand(ctx, origin, userId, { type: 'set-role', role: input.role }, actor)
  const ban = adminUpdateBanCommand(input.ban ?? {})
  if (ban) await runUserCommand(ctx, origin, userId, ban, actor)
  return reread(ctx, userId)
}

/** The ban fields given, as one command; null when none was. */
const adminUpdateBanCommand = ({ banned, banReason, banExpires }: BanFieldsInput): UserCommand | null => {
  if (banned === undefined && banReason === undefined && banExpires === undefined) return null
  return {
    type: 'admin-update-ban',
    ...(banned !== undefined ? { banned } : {}),
    ...(banReason !== undefined ? { reason: banReason } : {}),
    ...(banExpires !== undefined ? { expiresAt: banExpires } : {}),
  }
}

export const setRoleByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  actor: Actor,
  { userId, role }: { userId: string; role: string },
): Promise<KnownUser> => {
  // An unknown user is refused by the decider (USER_NOT_FOUND), as for every command below.
  await runUserCommand(ctx, origin, userId, { type: 'set-role', role }, actor)
  return reread(ctx, userId)
}

/** The operator's own user id, which the decider refuses to ban or remove; none for the server key. */
const operatorOf = (actor: Actor): { operatorId?: string } =>
  actor.type === 'user' ? { operatorId: actor.userId } : {}

export type BanInput = { userId: string; banReason: string | null; banExpiresIn: number | null }

export const banUserByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  actor: Actor,
  { userId, banReason, banExpiresIn }: BanInput,
): Promise<KnownUser> => {
  // The config's defaults (better-auth's defaultBanReason, defaultBanExpiresIn) stand in for what
  // the operator left out.
  const { defaultBanReason, defaultBanExpiresIn } = ctx.config.admin
  // As better-auth: 0 counts as left out; a negative number gives a ban already over, which lifts
  // itself at the next sign-in (the sessions still end now).
  const seconds = banExpiresIn || defaultBanExpiresIn
  const expiresAt = seconds === null ? null : new Date(ctx.clock().getTime() + seconds * 1000).toISOString()
  // The ban event ends every session of the user at once, on every instance: it is written to the
  // pending revocations in its own transaction (projections/sessions/pending-revocations.ts).
  await runUserCommand(
    ctx,
    origin,
    userId,
    { type: 'ban-user', reason: banReason || defaultBanReason, expiresAt, ...operatorOf(actor) },
    actor,
  )
  return reread(ctx, userId)
}

export const unbanUserByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  actor: Actor,
  userId: string,
): Promise<KnownUser> => {
  await runUserCommand(ctx, origin, userId, { type: 'unban-user' }, actor)
  return reread(ctx, userId)
}

export const setUserPasswordByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  actor: Actor,
  { userId, newPassword }: { userId: string; newPassword: string },
): Promise<void> => {
  assertPasswordPolicy(newPassword, passwordLimits(ctx))
  const passwordHash = await hashPassword(newPassword)
  await runUserCommand(
    ctx,
    origin,
    userId,
    { type: 'admin-set-password', accountId: userId, passwordHash },
    actor,
  )
}

/**
 * Removed as a self-deleted user is: sessions end, claims go, memberships end, and the data key
 * and the address's invitee keys are destroyed. The only owner of an organization is refused as
 * they would be themselves (ONLY_OWNER_OF_AN_ORGANIZATION): an operator first gives the
 * organization another owner or deletes it, so no organization is left without one.
 */
export const removeUserByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  actor: Actor,
  userId: string,
): Promise<void> => {
  const departing = await beforeAccountDeletion(ctx, userId)
  await runUserCommand(
    ctx,
    origin,
    userId,
    {
      type: 'delete-user',
      proof: { kind: 'verified' },
      // The person hears of it as a self-deletion would tell them.
      noticeId: newId(),
      alsoErases: departing.inviteeKeys,
      soleOwnerOf: departing.soleOwnerOf,
      ...operatorOf(actor),
    },
    actor,
  )
  await afterAccountDeletion(ctx, origin, departing)
  await ctx.eraseUser(userId)
}

/**
 * update-user: the operator's `data` and what they may set besides updating, one command the user
 * decider judges whole (domain/user/user.admin-update.ts) and appends at once.
 */
export const updateUserByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: AdminCaller,
  userId: string,
  data: Readonly<Record<string, unknown>>,
): Promise<KnownUser> => {
  const { actor } = caller
  const may = (request: PermissionRequest) => callerMay(caller, request)
  const command: UserCommand = {
    type: 'admin-update-user',
    userId,
    data,
    may: {
      ban: may({ user: ['ban'] }),
      setEmail: may({ user: ['set-email'] }),
      setRole: may({ user: ['set-role'] }),
    },
    ...operatorOf(actor),
  }
  // Someone else's address: the store's claim on it refuses the change (400, as better-auth's
  // admin route), not a look at the read model first, which may trail the log.
  await runUserCommand(ctx, origin, userId, command, actor).catch((error: unknown) => {
    throw takenError(error)
  })
  return reread(ctx, userId)
}
