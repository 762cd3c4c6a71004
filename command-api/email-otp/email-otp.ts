/// Email one-time codes (better-auth's emailOTP plugin): sending a code, checking it, and what a
/// right code does (sign in or up, verify the address, reset the password). Sending answers the
/// same whether or not the address has an account: the address is looked up either way and the
/// code recorded (or not) only after the answer went out.

import type { OtpType } from '../../domain/email-otp/email-otp.js'
import { AUTH_ERRORS, errorWithStatus } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import { assertPasswordPolicy } from '../../domain/user/password-policy.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import { hashPassword } from '../../infra/crypto/password.js'
import { newId } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { passwordLimits } from '../email-password/sign-up.js'
import { accountOfProvenAddress } from '../passwordless/proven-address.js'
import { revokeSessionAs } from '../sessions/end-session.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { enterCode, issueCode } from './otp-codes.js'

type Later = () => Promise<void>
const nothing: Later = async () => {}

/** better-auth lowercases the address and then checks its shape: 400 INVALID_EMAIL. */
const checkedEmail = (raw: string): string => {
  const email = normalizeEmail(raw)
  if (!isValidEmail(email)) throw AUTH_ERRORS.error('INVALID_EMAIL')
  return email
}

/**
 * POST /email-otp/send-verification-otp: a code for a sign-in (mailed to any address while sign-up
 * is allowed), a verification or a reset (mailed only to an address with an account).
 */
export const sendVerificationOtp = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: { email: string; type: OtpType },
): Promise<Later> => {
  const email = checkedEmail(input.email)
  if (input.type === 'change-email') throw AUTH_ERRORS.error('INVALID_OTP_TYPE')
  return codeFor(ctx, origin, email, input.type)
}

/** POST /email-otp/request-password-reset and /forget-password/email-otp (no shape check, as better-auth). */
export const requestPasswordResetOtp = (ctx: CommandContext, origin: RequestOrigin, email: string) =>
  codeFor(ctx, origin, normalizeEmail(email), 'forget-password')

const codeFor = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  email: string,
  otpType: Exclude<OtpType, 'change-email'>,
): Promise<Later> => {
  const user = await ctx.lookups.users.byEmail(email)
  const mailsStrangers = otpType === 'sign-in' && !ctx.config.emailOTP.disableSignUp
  if (!user && !mailsStrangers) return nothing
  return () => issueCode(ctx, origin, { otpType, email }, user?.id ?? null)
}

/** POST /email-otp/check-verification-otp: right or wrong (a wrong guess counts), nothing used up. */
export const checkVerificationOtp = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: { email: string; type: OtpType; otp: string },
): Promise<void> => {
  const email = checkedEmail(input.email)
  await enterCode(ctx, origin, { otpType: input.type, email }, input.otp, false)
  // Whoever holds a right code read it in the address's mail: telling them about the account is safe.
  if (!(await ctx.lookups.users.byEmail(email))) throw errorWithStatus('USER_NOT_FOUND', 400)
}

/** POST /sign-in/email-otp: the account of the address (made when sign-up is allowed), to sign in. */
export const accountForSignInCode = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: { email: string; otp: string; name: string | null; image: string | null },
): Promise<KnownUser> => {
  const email = normalizeEmail(input.email)
  await enterCode(ctx, origin, { otpType: 'sign-in', email }, input.otp, true)
  const { disableSignUp } = ctx.config.emailOTP
  const profile = disableSignUp ? null : { name: input.name, image: input.image }
  const account = await accountOfProvenAddress(ctx, origin, email, profile)
  if (!account) throw AUTH_ERRORS.error('INVALID_OTP')
  return account.user
}

/** POST /email-otp/verify-email: the address is verified; the caller may sign the user in. */
export const verifyEmailWithCode = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: { email: string; otp: string },
): Promise<KnownUser> => {
  const email = checkedEmail(input.email)
  await enterCode(ctx, origin, { otpType: 'email-verification', email }, input.otp, true)
  const user = await ctx.lookups.users.byEmail(email)
  if (!user) throw errorWithStatus('USER_NOT_FOUND', 400)
  await runUserCommand(ctx, origin, user.id, { type: 'verify-email', email }, { type: 'anonymous' })
  return (await ctx.lookups.users.byId(user.id)) ?? user
}

/**
 * POST /email-otp/reset-password: a new password (the first one, for an account without), the
 * address verified, and every session ended, as a reset by link does.
 */
export const resetPasswordWithCode = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: { email: string; otp: string; password: string },
): Promise<void> => {
  const email = normalizeEmail(input.email)
  assertPasswordPolicy(input.password, passwordLimits(ctx))
  const codeHash = await enterCode(ctx, origin, { otpType: 'forget-password', email }, input.otp, true)
  const user = await ctx.lookups.users.byEmail(email)
  if (!user) throw errorWithStatus('USER_NOT_FOUND', 400)
  const passwordHash = await hashPassword(input.password)
  const actor = { type: 'anonymous' } as const
  await runUserCommand(
    ctx,
    origin,
    user.id,
    { type: 'reset-password-by-code', codeHash, accountId: newId(), passwordHash },
    actor,
  )
  for (const session of await ctx.lookups.sessions.ofUser(user.id))
    await revokeSessionAs(ctx, origin, { sessionId: session.id, actor, reason: 'password-reset' })
}
