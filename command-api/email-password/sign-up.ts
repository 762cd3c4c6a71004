/// Sign-up with email and password: policy checks before the (expensive) hash, the user registered
/// with its email claimed atomically in the store and, unless auto sign-in is off, its first session.

import { AUTH_ERRORS } from '../../domain/errors.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { parseEmail } from '../../domain/user/email.js'
import { assertPasswordPolicy } from '../../domain/user/password-policy.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import {
  claimConflictError,
  EMAIL_CLAIM_SCOPE,
  USERNAME_CLAIM_SCOPE,
  userClaims,
  userDecider,
  userStream,
} from '../../domain/user/user.js'
import { signUpUsernames } from '../../domain/user/username.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import { hashPassword } from '../../infra/crypto/password.js'
import { newId } from '../../infra/crypto/tokens.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { newSession, type StartedSession } from '../sessions/start-session.js'
import { grantAdminIfListed } from '../shared/admin-emails.js'
import { handlePart } from '../shared/handle.js'
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

export const signUp = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: SignUpInput,
): Promise<{ session: StartedSession | null; user: KnownUser }> => {
  const { config, store, handle, clock, lookups } = ctx
  if (!config.emailAndPassword.enabled) throw AUTH_ERRORS.error('EMAIL_PASSWORD_SIGN_UP_DISABLED')
  // Username first, as better-auth's username plugin checks it ahead of the sign-up itself.
  const limits = usernameLimits(ctx)
  const { username } = signUpUsernames(input, limits)
  if (username !== null && (await store.claimOwner(USERNAME_CLAIM_SCOPE, username)))
    throw AUTH_ERRORS.error('USERNAME_IS_ALREADY_TAKEN')
  const email = parseEmail(input.email)
  assertPasswordPolicy(input.password, passwordLimits(ctx))
  // Saves a hash for the common case; the claims below are what actually guarantee uniqueness.
  if (await store.claimOwner(EMAIL_CLAIM_SCOPE, email))
    throw AUTH_ERRORS.error('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')

  const userId = newId()
  const metadata = metadataFor(origin, { type: 'anonymous' }, clock())
  const passwordHash = await hashPassword(input.password)
  const register = handlePart(
    userDecider,
    userStream(userId),
    {
      type: 'register-user',
      userId,
      email,
      name: input.name,
      image: input.image,
      credential: { accountId: newId(), passwordHash },
      sendVerification:
        config.emailVerification.sendOnSignUp || config.emailAndPassword.requireEmailVerification,
      callbackURL: input.callbackURL,
      ...(input.username !== undefined ? { username: input.username } : {}),
      ...(input.displayUsername !== undefined ? { displayUsername: input.displayUsername } : {}),
      usernameLimits: limits,
    },
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
  // The admin options' default role for a new account.
  const roleSet = await grantAdminIfListed(ctx, origin, userId, registered)
  // The read models show the user now; its row is the one its registration made, unless a role was
  // set since.
  const event = registered.find((candidate) => candidate.type === 'user.registered')
  const user =
    !roleSet && event?.type === 'user.registered'
      ? lookups.users.registeredRow(event.data, new Date(metadata.at))
      : await lookups.users.byId(userId)
  if (!user) throw AUTH_ERRORS.error('FAILED_TO_CREATE_USER')
  return { session: session?.started ?? null, user }
}
