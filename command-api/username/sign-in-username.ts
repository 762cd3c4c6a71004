/// Sign-in with username and password (better-auth's username plugin). An unknown username and a
/// wrong password are the same 401 after the same work (a full password hash), so neither the answer
/// nor its timing tells which usernames exist. A username that breaks the rules is 422.

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { parseUsername } from '../../domain/user/username.js'
import type { CommandContext } from '../context.js'
import { type SignedIn, signInWithPassword } from '../email-password/sign-in.js'
import { usernameLimits } from './username-limits.js'

export type SignInUsernameInput = {
  username: string
  password: string
  rememberMe: boolean
  callbackURL: string | null
}

export const signInUsername = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: SignInUsernameInput,
): Promise<SignedIn> => {
  // As better-auth: nothing to check without both, before any rule or hash.
  if (!input.username || !input.password) throw AUTH_ERRORS.error('INVALID_USERNAME_OR_PASSWORD')
  const username = parseUsername(input.username, 'sign-in', usernameLimits(ctx))
  const found = await ctx.lookups.users.credentialByUsername(username)
  return signInWithPassword(ctx, origin, found, input, 'INVALID_USERNAME_OR_PASSWORD')
}
