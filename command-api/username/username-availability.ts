/// Whether a username is free: asked of the store's `user.username` claims, the same record that
/// keeps usernames unique, so an answer never trails a sign-up or a change.

import { USERNAME_CLAIM_SCOPE } from '../../domain/user/user.js'
import { parseUsername, usernameError } from '../../domain/user/username.js'
import type { CommandContext } from '../context.js'
import { usernameLimits } from './username-limits.js'

export const isUsernameAvailable = async (ctx: CommandContext, value: string): Promise<boolean> => {
  // better-auth answers an empty username 'Username is invalid' rather than 'too short' (422).
  if (!value) throw usernameError('INVALID_USERNAME', 'sign-in')
  const username = parseUsername(value, 'sign-in', usernameLimits(ctx))
  return (await ctx.store.claimOwner(USERNAME_CLAIM_SCOPE, username)) === null
}
