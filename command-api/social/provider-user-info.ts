/// What a provider's profile may change on the local user, as better-auth's options say:
/// `account.accountLinking.updateUserInfoOnLink` copies the name and picture when an account is
/// linked (never the address, so a link cannot move the account to another identity), and a
/// provider's `overrideUserInfoOnSignIn` copies the name, picture and address at every sign-in
/// through it. A provider address already held by another user is left alone: the sign-in
/// still goes through, with the user as they were.

import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import type { UserCommand } from '../../domain/user/user.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { ProviderProfile } from '../../infra/oauth/oauth-client.js'
import type { CommandContext } from '../context.js'
import { runUserCommand } from '../shared/run-user-command.js'

/** The provider's name and picture, where it gave them. */
export const copyNameAndImage = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  profile: ProviderProfile,
): Promise<void> => {
  const command: UserCommand = {
    type: 'update-profile',
    ...(profile.name ? { name: profile.name } : {}),
    ...(profile.image ? { image: profile.image } : {}),
  }
  if (Object.keys(command).length === 1) return
  await runUserCommand(ctx, origin, userId, command)
}

/**
 * The provider's name, picture and address. The address counts as verified when the provider
 * says so, or, unchanged, when it already was (better-auth's rule).
 */
export const overrideUserInfo = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  user: KnownUser,
  profile: ProviderProfile,
): Promise<void> => {
  await copyNameAndImage(ctx, origin, user.id, profile)
  if (!profile.email || !isValidEmail(profile.email)) return
  const email = normalizeEmail(profile.email)
  if (email === user.email && (user.email_verified || !profile.emailVerified)) return
  try {
    await runUserCommand(ctx, origin, user.id, {
      type: 'admin-set-email',
      newEmail: email,
      emailVerified: profile.emailVerified,
    })
  } catch (error) {
    if (!(error instanceof UniqueClaimConflictError)) throw error
  }
}
