/// Changing the email address (spec section 4). An address that belongs to someone else is neither
/// given away nor revealed: the answer is the same as for a free one, and nothing changes. The
/// answer does not wait for the change either: like a password reset request, the work is done
/// after the answer has gone out, so a taken address costs the caller no less time than a free one.

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { parseEmail } from '../../domain/user/email.js'
import { EMAIL_CLAIM_SCOPE } from '../../domain/user/user.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { runUserCommand } from '../shared/run-user-command.js'

/** Checks the request, then returns the change as work to run AFTER the answer has gone out. */
export const changeEmail = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  { newEmail, callbackURL }: { newEmail: string; callbackURL: string | null },
): Promise<() => Promise<void>> => {
  if (!ctx.config.user.changeEmail.enabled) throw AUTH_ERRORS.error('CHANGE_EMAIL_DISABLED')
  const email = parseEmail(newEmail)
  if (email === auth.user.email) throw AUTH_ERRORS.error('EMAIL_IS_THE_SAME')
  // Recorded as asked at request time, however late the work runs.
  const requestedAt = ctx.clock()
  return async () => {
    const owner = await ctx.store.claimOwner(EMAIL_CLAIM_SCOPE, email)
    if (owner && owner !== auth.user.id) return
    try {
      await runUserCommand({ ...ctx, clock: () => requestedAt }, origin, auth.user.id, {
        type: 'change-email',
        newEmail: email,
        callbackURL,
      })
    } catch (error) {
      if (error instanceof UniqueClaimConflictError) return
      throw error
    }
  }
}
