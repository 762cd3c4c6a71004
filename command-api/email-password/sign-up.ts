/// Sign-up with email and password: the user decider's refusals (username, address, password
/// policy, an address or username in use) before the (expensive) hash, the user registered with its
/// email claimed atomically in the store and, unless auto sign-in is off, its first session.

import { AUTH_ERRORS } from '../../domain/errors.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { passwordFacts } from '../../domain/user/password-policy.js'
import type { UserCommand } from '../../domain/user/user.commands.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import { claimConflictError, userClaims, userDecider, userStream } from '../../domain/user/user.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import { hashPassword } from '../../infra/crypto/password.js'
import { newId } from '../../infra/crypto/tokens.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { newSession, type StartedSession } from '../sessions/start-session.js'
import { grantAdminIfListed } from '../shared/admin-emails.js'
import { decideAheadWithoutHistory } from '../shared/decide-ahead.js'
import { handlePart } from '../shared/handle.js'
import { claimsInUse } from '../username/claims-in-use.js'
import { usernameLimits } from '../username/username-limits.js'

export type SignUpInput = {
  name: string
  email: string
  password: string
  image: string | null
  rememberMe: boolean
  callbackURL: string | null
  username?: string
  displayUsername?: string
}

/** The configured password policy: length limits, and whether common passwords are refused. */
export const passwordLimits = ({ config }: CommandContext) => ({
  min: config.emailAndPassword.minPasswordLength,
  max: config.emailAndPassword.maxPasswordLength,
  rejectCommon: config.emailAndPassword.rejectCommonPasswords,
})

type RegisterUser = Extract<UserCommand, { type: 'register-user' }>

/**
 * The registration, with the facts its refusals need (the claims in use, the password measured):
 * the user decider refuses in better-auth's order (domain/user/user.register.ts).
 */
const registration = async (ctx: CommandContext, input: SignUpInput): Promise<RegisterUser> => {
  const { config } = ctx
  const limits = usernameLimits(ctx)
  const passwordPolicy = passwordLimits(ctx)
  return {
    type: 'register-user',
    userId: newId(),
    email: input.email,
    name: input.name,
    image: input.image,
    credential: null,
    sendVerification:
      config.emailVerification.sendOnSignUp || config.emailAndPassword.requireEmailVerification,
    callbackURL: input.callbackURL,
    ...(input.username !== undefined ? { username: input.username } : {}),
    ...(input.displayUsername !== undefined ? { displayUsername: input.displayUsername } : {}),
    usernameLimits: limits,
    inUse: await claimsInUse(ctx, input, limits),
    signUp: { password: passwordFacts(input.password, passwordPolicy), passwordPolicy },
  }
}

export const signUp = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: SignUpInput,
): Promise<{ session: StartedSession | null; user: KnownUser }> => {
  const { config, handle, clock } = ctx
  if (!config.emailAndPassword.enabled) throw AUTH_ERRORS.error('EMAIL_PASSWORD_SIGN_UP_DISABLED')
  const command = await registration(ctx, input)
  // Refused before the (expensive) hash, as better-auth answers sign-up; the claims the append
  // takes are what actually guarantee uniqueness.
  decideAheadWithoutHistory(userDecider, command)
  const { userId } = command
  const metadata = metadataFor(origin, { type: 'anonymous' }, clock())
  const credential = { accountId: newId(), passwordHash: await hashPassword(input.password) }
  const register = handlePart(
    userDecider,
    userStream(userId),
    { ...command, credential },
    { metadata, claims: userClaims, newStream: true },
  )
  // The first session goes in with the user: one append, one wait for the read models.
  const signsIn = config.emailAndPassword.autoSignIn && !config.emailAndPassword.requireEmailVerification
  const session = signsIn ? newSession(ctx, origin, { userId, rememberMe: input.rememberMe }) : null
  let registered: UserEvent[]
  try {
    const [user] = await handle.together(session ? [register, session.part] : [register])
    registered = user.events
  } catch (error) {
    if (error instanceof UniqueClaimConflictError) throw claimConflictError(error.scope)
    throw error
  }
  return {
    session: session?.started ?? null,
    user: await registeredUser(ctx, origin, registered, metadata.at),
  }
}

/** The user as the read models now show it: the row its registration made, unless a role was set. */
const registeredUser = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  registered: UserEvent[],
  at: string,
): Promise<KnownUser> => {
  const event = registered.find((candidate) => candidate.type === 'user.registered')
  if (event?.type !== 'user.registered') throw AUTH_ERRORS.error('FAILED_TO_CREATE_USER')
  // The admin options' default role for a new account.
  const roleSet = await grantAdminIfListed(ctx, origin, event.data.userId, registered)
  const user = roleSet
    ? await ctx.lookups.users.byId(event.data.userId)
    : ctx.lookups.users.registeredRow(event.data, new Date(at))
  if (!user) throw AUTH_ERRORS.error('FAILED_TO_CREATE_USER')
  return user
}
