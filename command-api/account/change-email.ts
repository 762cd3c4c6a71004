/// Changing the email address (spec section 4). An address that belongs to someone else is neither
/// given away nor revealed: the answer is the same as for a free one, and nothing changes. The
/// answer does not wait for the change either: like a password reset request, the work is done
/// after the answer has gone out, so a taken address costs the caller no less time than a free one.

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { normalizeEmail } from '../../domain/user/email.js'
import { EMAIL_CLAIM_SCOPE, type UserCommand, userDecider, userStream } from '../../domain/user/user.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { decideAhead } from '../shared/decide-ahead.js'
import { runUserCommand } from '../shared/run-user-command.js'

/** Checks the request, then returns the change as work to run AFTER the answer has gone out. */
export const changeEmail = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  { newEmail, callbackURL }: { newEmail: string; callbackURL: string | null },
): Promise<() => Promise<void>> => {
  if (!ctx.config.user.changeEmail.enabled) throw AUTH_ERRORS.error('CHANGE_EMAIL_DISABLED')
  const command: Extract<UserCommand, { type: 'change-email' }> = {
    type: 'change-email',
    newEmail,
    callbackURL,
  }
  // The decider's refusals (INVALID_EMAIL, EMAIL_IS_THE_SAME) are answered now, before the answer;
  // they depend only on the person's own stream, so they tell nothing about the address's owner.
  await decideAhead(ctx.store, userDecider, userStream(auth.user.id), command)
  const email = normalizeEmail(newEmail)
  // Recorded as asked at request time, however late the work runs.
  const requestedAt = ctx.clock()
  return async () => {
    // Whether the address is someone else's is a fact for the decider, which then changes nothing.
    const owner = await ctx.store.claimOwner(EMAIL_CLAIM_SCOPE, email)
    const takenByAnother = owner !== null && owner !== auth.user.id
    try {
      await runUserCommand({ ...ctx, clock: () => requestedAt }, origin, auth.user.id, {
        ...command,
        takenByAnother,
      })
    } catch (error) {
      // Taken by someone else in the meantime: the store's claim refused it, just as quietly.
      if (error instanceof UniqueClaimConflictError) return
      throw error
    }
  }
}
