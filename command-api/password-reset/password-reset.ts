/// Password reset: a request (same answer, and no measurable timing difference, whether or not the
/// address exists), the link's landing check, and the reset itself (single use, even when many
/// submits race: the user stream's optimistic concurrency lets exactly one consume the token).

import { AUTH_ERRORS, invalidBodyField } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import { assertPasswordPolicy } from '../../domain/user/password-policy.js'
import { issueToken } from '../../infra/crypto/derived-tokens.js'
import { hashPassword, verifyPassword } from '../../infra/crypto/password.js'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { passwordLimits } from '../email-password/sign-up.js'
import { revokeSessionAs } from '../sessions/end-session.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { forgetTrustedDevices } from '../two-factor/manage-two-factor.js'

/** Reset links live one hour (spec). */
const RESET_TOKEN_SECONDS = 3600

export const RESET_REQUESTED_MESSAGE =
  'If this email exists in our system, check your email for the reset link'

/**
 * Looks the address up, then records the request AFTER the answer has gone out, so a known address
 * costs the caller no more time than an unknown one.
 */
export const requestPasswordReset = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { email, redirectTo }: { email: string; redirectTo: string | null },
): Promise<() => Promise<void>> => {
  // better-auth's body schema refuses a malformed address before anything else (400).
  if (!isValidEmail(email)) throw invalidBodyField('email', 'Invalid email address')
  const user = await ctx.lookups.users.byEmail(normalizeEmail(email))
  if (!user) return async () => {}
  return async () => {
    const { requestId, tokenHash } = issueToken(ctx.config.secret, 'password-reset')
    const now = ctx.clock()
    const expiresAt = new Date(now.getTime() + RESET_TOKEN_SECONDS * 1000).toISOString()
    await runUserCommand(
      ctx,
      origin,
      user.id,
      { type: 'request-password-reset', requestId, tokenHash, expiresAt, redirectTo, now: now.toISOString() },
      { type: 'anonymous' },
    )
  }
}

/** The live token's owner, or null; an expired token is discarded on the way (spec). */
export const findLiveResetToken = async (ctx: CommandContext, origin: RequestOrigin, token: string) => {
  const tokenHash = sha256Hex(token)
  const found = await ctx.lookups.oneTimeTokens.find(tokenHash, 'password-reset')
  if (!found) return null
  const now = ctx.clock()
  if (found.expires_at.getTime() > now.getTime()) return { userId: found.user_id, tokenHash }
  await runUserCommand(
    ctx,
    origin,
    found.user_id,
    { type: 'discard-token', tokenHash, now: now.toISOString() },
    { type: 'system' },
  )
  return null
}

export const resetPassword = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { token, newPassword }: { token: string; newPassword: string },
): Promise<void> => {
  assertPasswordPolicy(newPassword, passwordLimits(ctx))
  const live = await findLiveResetToken(ctx, origin, token)
  if (!live) throw AUTH_ERRORS.error('INVALID_TOKEN')
  const stored = await ctx.lookups.users.passwordHashOf(live.userId)
  const [passwordHash, sameAsCurrent] = await Promise.all([
    hashPassword(newPassword),
    stored ? verifyPassword(stored, newPassword) : false,
  ])
  await runUserCommand(
    ctx,
    origin,
    live.userId,
    {
      type: 'reset-password',
      tokenHash: live.tokenHash,
      passwordHash,
      now: ctx.clock().toISOString(),
      sameAsCurrent,
    },
    { type: 'anonymous' },
  )
  // Whoever held a session before the reset may be the reason for it: end them all, recorded as
  // the reset's doing (whoever followed the link), not as something the owner did while signed in.
  for (const session of await ctx.lookups.sessions.ofUser(live.userId))
    await revokeSessionAs(ctx, origin, {
      sessionId: session.id,
      actor: { type: 'anonymous' },
      reason: 'password-reset',
    })
  // A new password ends every device trusted to skip the second step too.
  await forgetTrustedDevices(ctx, origin, live.userId, 'password-changed', { type: 'anonymous' })
}
