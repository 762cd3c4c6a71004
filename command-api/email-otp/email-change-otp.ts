/// Changing the address with codes (better-auth's emailOTP `changeEmail`, off unless
/// `emailOTP.changeEmail.enabled`): a code goes to the new address (after one from the current
/// address when `verifyCurrentEmail`), and entering it moves the account there, verified. A new
/// address that already has an account gets no mail, and the answer is the same.

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { enterCode, issueCode } from './otp-codes.js'

type Move = { currentEmail: string; newEmail: string }

/** The checks both steps make, in better-auth's order; a session past its fresh age is refused. */
const checkedMove = (ctx: CommandContext, auth: FoundSession, rawNewEmail: string): Move => {
  if (!ctx.config.emailOTP.changeEmail.enabled) throw AUTH_ERRORS.error('CHANGE_EMAIL_WITH_OTP_IS_DISABLED')
  const { freshAge } = ctx.config.session
  const age = ctx.clock().getTime() - new Date(auth.session.created_at).getTime()
  if (freshAge !== 0 && age >= freshAge * 1000) throw AUTH_ERRORS.error('SESSION_NOT_FRESH')
  const currentEmail = auth.user.email
  const newEmail = normalizeEmail(rawNewEmail)
  if (!isValidEmail(newEmail)) throw AUTH_ERRORS.error('INVALID_EMAIL')
  if (newEmail === currentEmail) throw AUTH_ERRORS.error('EMAIL_IS_THE_SAME')
  return { currentEmail, newEmail }
}

/** POST /email-otp/request-email-change: returns the mailing of the code, to run after the answer. */
export const requestEmailChangeOtp = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: { newEmail: string; otp: string | null },
): Promise<() => Promise<void>> => {
  const move = checkedMove(ctx, auth, input.newEmail)
  if (ctx.config.emailOTP.changeEmail.verifyCurrentEmail) {
    if (!input.otp) throw AUTH_ERRORS.error('OTP_IS_REQUIRED_TO_VERIFY_CURRENT_EMAIL')
    const slot = { otpType: 'email-verification', email: move.currentEmail } as const
    await enterCode(ctx, origin, slot, input.otp, true)
  }
  const taken = await ctx.lookups.users.byEmail(move.newEmail)
  if (taken) return async () => {}
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
  const move = checkedMove(ctx, auth, input.newEmail)
  const slot = { otpType: 'change-email', email: move.currentEmail, newEmail: move.newEmail } as const
  await enterCode(ctx, origin, slot, input.otp, true)
  if (await ctx.lookups.users.byEmail(move.newEmail)) throw AUTH_ERRORS.error('EMAIL_ALREADY_IN_USE')
  try {
    await runUserCommand(ctx, origin, auth.user.id, { type: 'change-email-by-code', ...move })
  } catch (error) {
    // Someone signed up with the address a moment ago: the store's claim refused the move.
    if (error instanceof UniqueClaimConflictError) throw AUTH_ERRORS.error('EMAIL_ALREADY_IN_USE')
    throw error
  }
}
