/// Updating the profile: name, picture, username and its display form. A username someone else
/// holds is refused by the store's claim, atomically with the change (never a read-then-write).

import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { claimConflictError } from '../../domain/user/user.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { usernameLimits } from '../username/username-limits.js'

export type UpdateUserInput = {
  name?: string
  image?: string | null
  username?: string
  displayUsername?: string
}

export const updateUser = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: UpdateUserInput,
): Promise<void> => {
  try {
    await runUserCommand(ctx, origin, auth.user.id, {
      type: 'update-profile',
      ...input,
      usernameLimits: usernameLimits(ctx),
    })
  } catch (error) {
    if (error instanceof UniqueClaimConflictError) throw claimConflictError(error.scope)
    throw error
  }
}
