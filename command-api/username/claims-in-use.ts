/// Whether a registration's address and username are already someone's: read from the store's
/// claims (the record that keeps them unique, so the answer never trails a sign-up) and handed to
/// the user decider as facts (`inUse` of `register-user`), which refuses.

import { isDomainError } from '../../domain/shared/errors.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import { EMAIL_CLAIM_SCOPE, USERNAME_CLAIM_SCOPE } from '../../domain/user/user.js'
import { signUpUsernames, type UsernameLimits } from '../../domain/user/username.js'
import type { CommandContext } from '../context.js'

type Names = { email: string; username?: string | undefined; displayUsername?: string | undefined }

/** The username a registration would claim, or null: none given, or one the decider will refuse. */
const usernameToClaim = (names: Names, limits: UsernameLimits): string | null => {
  try {
    return signUpUsernames(names, limits).username
  } catch (error) {
    if (isDomainError(error)) return null
    throw error
  }
}

/** Both claims, read at once; an address or username the decider refuses anyway is not looked up. */
export const claimsInUse = async (
  ctx: Pick<CommandContext, 'store'>,
  names: Names,
  limits: UsernameLimits,
): Promise<{ email: boolean; username: boolean }> => {
  const username = usernameToClaim(names, limits)
  const [emailOwner, usernameOwner] = await Promise.all([
    isValidEmail(names.email) ? ctx.store.claimOwner(EMAIL_CLAIM_SCOPE, normalizeEmail(names.email)) : null,
    username === null ? null : ctx.store.claimOwner(USERNAME_CLAIM_SCOPE, username),
  ])
  return { email: emailOwner !== null, username: usernameOwner !== null }
}
