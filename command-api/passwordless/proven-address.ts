/// What magic links and email sign-in codes share once the mail proved the address: the account to
/// sign in (a new one when sign-up is allowed), and the session, started through the same path as a
/// password sign-in (`answerSignIn` in email-password/signed-in-answer.ts) so every gate on that path
/// (a second factor among them) applies to these sign-ins too.

import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { userClaims, userDecider, userStream } from '../../domain/user/user.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import { newId } from '../../infra/crypto/tokens.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { inviteeSubject } from '../organization/organization-command.js'
import { grantAdminIfListed } from '../shared/admin-emails.js'
import type { FirstFactorPassed } from '../two-factor/gated-sign-in.js'
import { revokeUnprovenAccess } from './unproven-access.js'

/** The profile a new account gets when the proof signs one up (the request's, as better-auth). */
export type NewAccountProfile = { name: string | null; image: string | null }

/**
 * The key id an address's mails are sealed under when it has no account: the same per-address key
 * as invitations, so erasing the person who later holds the address erases these too.
 */
export const addressSubjectOf = (ctx: CommandContext, email: string): Promise<string> =>
  inviteeSubject(ctx, email)

/**
 * The account of a proven address: the existing one (whose unproven access ends first when the
 * account still called the address unverified), or a new one with `profile` when sign-up is
 * allowed. Null when there is none and none may be made.
 */
export const accountOfProvenAddress = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  email: string,
  profile: NewAccountProfile | null,
): Promise<{ user: KnownUser; isNew: boolean } | null> => {
  const found = await ctx.lookups.users.byEmail(email)
  if (found) {
    const user = found.email_verified ? found : await revokeUnprovenAccess(ctx, origin, found)
    return user ? { user, isNew: false } : null
  }
  if (!profile) return null
  return signUpProven(ctx, origin, email, profile)
}

const signUpProven = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  email: string,
  profile: NewAccountProfile,
): Promise<{ user: KnownUser; isNew: boolean } | null> => {
  const userId = newId()
  const command = {
    type: 'register-user',
    userId,
    email,
    name: profile.name ?? '',
    image: profile.image,
    credential: null,
    emailVerified: true,
    sendVerification: false,
    callbackURL: null,
  } as const
  try {
    const { events } = await ctx.handle(userDecider, userStream(userId), command, {
      metadata: metadataFor(origin, { type: 'anonymous' }, ctx.clock()),
      claims: userClaims,
      newStream: true,
    })
    await grantAdminIfListed(ctx, origin, userId, events)
  } catch (error) {
    // The address was taken a moment ago (a second click, another sign-up): sign in to that account.
    if (!(error instanceof UniqueClaimConflictError)) throw error
    const taken = await ctx.lookups.users.byEmail(email)
    return taken ? { user: taken, isNew: false } : null
  }
  const user = await ctx.lookups.users.byId(userId)
  return user ? { user, isNew: true } : null
}

/**
 * A mailed link or code proved the address: the first factor passed, and `answerSignIn` decides
 * whether a session starts now or the second step comes first (Tessera lets neither skip it).
 */
export const provenFirstFactor = (
  user: KnownUser,
  factor: 'magic-link' | 'email-otp',
): FirstFactorPassed => ({
  user,
  rememberMe: true,
  factor,
})
