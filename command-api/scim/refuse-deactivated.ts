/// The deactivation check every way in goes through, beside the ban check: `startSession` calls it
/// before a session exists. The record it reads is written inline with the deactivation, so the
/// refusal holds on every instance the moment a directory deactivates the person.

import { refuseDeactivated } from '../../domain/scim/scim-user.js'
import { isDeactivated } from '../../projections/scim/scim-inline.js'
import type { CommandContext } from '../context.js'

export const refuseDeactivatedUser = async (ctx: Pick<CommandContext, 'db'>, userId: string): Promise<void> =>
  refuseDeactivated({ deactivated: await isDeactivated(ctx.db, userId) })
