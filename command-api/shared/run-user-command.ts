/// Runs a user command on behalf of a request: the user stream, the email claims, the metadata.

import type { AppContext } from '../../app/server/context.js'
import type { Actor } from '../../domain/shared/metadata.js'
import { type UserCommand, userClaims, userDecider, userStream } from '../../domain/user/user.js'
import { metadataFor, type RequestOrigin } from '../../infra/http/request-metadata.js'

export const runUserCommand = (
  { handle, clock }: AppContext,
  request: RequestOrigin,
  userId: string,
  command: UserCommand,
  actor: Actor = { type: 'user', userId },
) =>
  handle(userDecider, userStream(userId), command, {
    metadata: metadataFor(request, actor, clock()),
    claims: userClaims,
  })
