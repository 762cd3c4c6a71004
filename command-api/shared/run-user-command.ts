/// Runs a user command on behalf of a request: the user stream, the email claims, the metadata.

import type { Actor } from '../../domain/shared/metadata.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { type UserCommand, userClaims, userDecider, userStream } from '../../domain/user/user.js'
import type { CommandContext } from '../context.js'

export const runUserCommand = (
  { handle, clock }: CommandContext,
  origin: RequestOrigin,
  userId: string,
  command: UserCommand,
  actor: Actor = { type: 'user', userId },
) =>
  handle(userDecider, userStream(userId), command, {
    metadata: metadataFor(origin, actor, clock()),
    claims: userClaims,
  })
