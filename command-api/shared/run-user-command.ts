/// Runs a user command on behalf of a request: the user stream, the email claims, the metadata.
/// A command that verifies an address listed in ADMIN_EMAILS also grants the admin role.

import type { Actor } from '../../domain/shared/metadata.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { type UserCommand, userClaims, userDecider, userStream } from '../../domain/user/user.js'
import type { CommandContext } from '../context.js'
import { grantAdminIfListed } from './admin-emails.js'

export const runUserCommand = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  command: UserCommand,
  actor: Actor = { type: 'user', userId },
) => {
  const result = await ctx.handle(userDecider, userStream(userId), command, {
    metadata: metadataFor(origin, actor, ctx.clock()),
    claims: userClaims,
  })
  await grantAdminIfListed(ctx, origin, userId, result.events)
  return result
}
