/// Changing the address with codes (better-auth's emailOTP `changeEmail`, off unless
/// `emailOTP.changeEmail.enabled`): a code goes to the new address (after one from the current
/// address when `verifyCurrentEmail`), and entering it moves the account there, verified. A new
/// address that already has an account gets no mail, and the answer is the same.

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { normalizeEmail } from '../../domain/user/email.js'
import { EMAIL_CLAIM_SCOPE, type UserCommand, userDecider, userStream } from '../../domain/user/user.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { decideAhead } from '../shared/decide-ahead.js'
import { isSessionFresh } from '../shared/fresh-session.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { enterCode, issueCode } from './otp-codes.js'

type Move = Extract<UserCommand, { type: 'change-email-by-code' }>

/**
 * The move, with what the user decider needs to judge it (the session's freshness); the decider
 * is asked ahead, so its refusals (SESSION_NOT_FRESH, INVALID_EMAIL, EMAIL_IS_THE_SAME) come before
 * any code is sent or entered, in better-auth's order.
 */
const askedMove = async (ctx: CommandContext, auth: FoundSession, newEmail: string): Promise<Move> => {
  if (!ctx.config.emailOTP.changeEmail.enabled) throw AUTH_ERRORS.error('CHANGE_EMAIL_WITH_OTP_IS_DISABLED')
  const move: Move = {
    type: 'change-email-by-code',
    currentEmail: auth.user.email,
    newEmail,
    sessionFresh: isSessionFresh(ctx, new Date(auth.session.created_at)),
  }
  await decideAhead(ctx.store, userDecider, userStream(auth.user.id), move)
  return { ...move, newEmail: normalizeEmail(newEmail) }
}

/** Whether the new address is someone else's, from the store's claim (never trails a sign-up). */
const takenByAnother = async (ctx: CommandContext, userId: string, email: string): Promise<boolean> => {
  const owner = await ctx.store.claimOwner(EMAIL_CLAIM_SCOPE, email)
  return owner !== null && owner !== userId
}

/** POST /email-otp/request-email-change: returns the mailing of the code, to run after the answer. */
export const requestEmailChangeOtp = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: { newEmail: string; otp: string | null },
): Promise<() => Promise<void>> => {
  const move = await askedMove(ctx, auth, input.newEmail)
  if (ctx.config.emailOTP.changeEmail.verifyCurrentEmail) {
    if (!input.otp) throw AUTH_ERRORS.error('OTP_IS_REQUIRED_TO_VERIFY_CURRENT_EMAIL')
    const slot = { otpType: 'email-verification', email: move.currentEmail } as const
    await enterCode(ctx, origin, slot, input.otp, true)
  }
  // An address with an account gets no code, and the answer is the same.
  if (await takenByAnother(ctx, auth.user.id, move.newEmail)) return async () => {}
  const slot = { otpType: 'change-email', email: move.currentEmail, newEmail: move.newEmail } as const
  return () => issueCode(ctx, origin, slot, auth.user.id)
}

/** POST /email-otp/change-email: the account moves to the new address, verified. */
export const changeEmailWithOtp = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: { newEmail: string; otp: string },
): Promise<void> => {
  const move = await askedMove(ctx, auth, input.newEmail)
  const slot = { otpType: 'change-email', email: move.currentEmail, newEmail: move.newEmail } as const
  await enterCode(ctx, origin, slot, input.otp, true)
  // Whose the address is, a fact for the decider, which refuses EMAIL_ALREADY_IN_USE.
  const command = { ...move, takenByAnother: await takenByAnother(ctx, auth.user.id, move.newEmail) }
  try {
    await runUserCommand(ctx, origin, auth.user.id, command)
  } catch (error) {
    // Someone signed up with the address a moment ago: the store's claim refused the move.
    if (error instanceof UniqueClaimConflictError) throw AUTH_ERRORS.error('EMAIL_ALREADY_IN_USE')
    throw error
  }
}
