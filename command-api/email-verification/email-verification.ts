/// Email verification: asking for a link (own unverified address only) and following one. A link is
/// an HS256 token; its `purpose` says whether it verifies an address or is a step of an email change.

import { isDomainError } from '../../domain/shared/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { normalizeEmail, parseEmail } from '../../domain/user/email.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { acceptedSecrets } from '../../infra/config/config.js'
import { verifyEmailToken } from '../../infra/crypto/email-token.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { type StartedSession, startSession } from '../sessions/start-session.js'
import { runUserCommand } from '../shared/run-user-command.js'

/**
 * Signed in: asks for a link to the caller's own address at once (a mismatch is an answer). Signed
 * out: looks the address up and returns the recording as work to run AFTER the answer has gone
 * out, so an existing unverified address costs the caller no more time than an unknown one.
 */
export const sendVerificationEmail = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  {
    email,
    callbackURL,
    session,
  }: { email: string; callbackURL: string | null; session: FoundSession | null },
): Promise<() => Promise<void>> => {
  // A malformed address is refused as sign-up refuses it (400 INVALID_EMAIL), signed in or not: its
  // shape says nothing about which accounts exist.
  parseEmail(email)
  if (session) {
    await runUserCommand(ctx, origin, session.user.id, {
      type: 'request-verification-email',
      email,
      callbackURL,
    })
    return async () => {}
  }
  // Signed out: the same answer whether or not the address exists or is verified.
  const user = await ctx.lookups.users.byEmail(normalizeEmail(email))
  if (!user || user.email_verified) return async () => {}
  return async () => {
    await runUserCommand(
      ctx,
      origin,
      user.id,
      { type: 'request-verification-email', email, callbackURL },
      { type: 'anonymous' },
    )
  }
}

export type VerificationOutcome =
  | { ok: true; signedIn: StartedSession | null }
  | { ok: false; error: 'invalid_token' | 'token_expired' | 'user_not_found' }

export const followVerificationLink = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { token, callbackURL }: { token: string; callbackURL: string | null },
): Promise<VerificationOutcome> => {
  const check = await verifyEmailToken(acceptedSecrets(ctx.config), token, ctx.clock())
  if (check.status === 'expired') return { ok: false, error: 'token_expired' }
  if (check.status === 'invalid') return { ok: false, error: 'invalid_token' }
  const { email, updateTo, purpose } = check.claims
  const user = await ctx.lookups.users.byEmail(email)
  if (!user) return { ok: false, error: 'user_not_found' }
  try {
    if (purpose === 'verify-email') {
      const { events } = await runUserCommand(
        ctx,
        origin,
        user.id,
        { type: 'verify-email', email },
        { type: 'anonymous' },
      )
      // A link signs in at most once: followed again (the address is verified by now) it proves
      // nothing new, and a link that leaked from a mailbox must not be a standing way in.
      const firstUse = events.length > 0
      if (!firstUse || !ctx.config.emailVerification.autoSignInAfterVerification)
        return { ok: true, signedIn: null }
      return {
        ok: true,
        signedIn: await startSession(ctx, origin, { userId: user.id, rememberMe: true }),
      }
    }
    if (!updateTo) return { ok: false, error: 'invalid_token' }
    const command =
      purpose === 'confirm-email-change'
        ? { type: 'confirm-email-change' as const, currentEmail: email, newEmail: updateTo, callbackURL }
        : { type: 'complete-email-change' as const, currentEmail: email, newEmail: updateTo }
    await runUserCommand(ctx, origin, user.id, command, { type: 'anonymous' })
    return { ok: true, signedIn: null }
  } catch (error) {
    // A stale step, or the new address was taken meanwhile: the link is simply no good any more.
    if (isDomainError(error) || error instanceof UniqueClaimConflictError)
      return { ok: false, error: 'invalid_token' }
    throw error
  }
}
