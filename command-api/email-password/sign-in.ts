/// Sign-in with email and password. Every failure is the same 401 (a malformed address aside: 400),
/// and an unknown email still costs a full password hash, so neither the answer nor its timing
/// tells which emails exist.

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import type { FoundCredential } from '../../http/ports/user-lookup.js'
import { burnPasswordCheck, verifyPassword } from '../../infra/crypto/password.js'
import type { CommandContext } from '../context.js'
import { RefusalWithRecord } from '../shared/refuse-then-record.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { refuseWhenSsoRequired } from '../sso/require-sso.js'
import type { FirstFactorPassed } from '../two-factor/gated-sign-in.js'

export type SignInInput = { email: string; password: string; rememberMe: boolean; callbackURL: string | null }

/** The password matched: the session (or the second step) is the gate's (answerSignIn). */
export type SignedIn = FirstFactorPassed

export const signIn = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: SignInInput,
): Promise<SignedIn> => {
  const { config, lookups } = ctx
  if (!config.emailAndPassword.enabled) throw AUTH_ERRORS.error('EMAIL_PASSWORD_DISABLED')
  // A malformed address says nothing about which accounts exist: 400, as better-auth answers it.
  if (!isValidEmail(input.email)) throw AUTH_ERRORS.error('INVALID_EMAIL')
  // An organization that requires SSO for this address's verified domain (command-api/sso).
  await refuseWhenSsoRequired(ctx, normalizeEmail(input.email))
  const found = await lookups.users.credentialByEmail(normalizeEmail(input.email))
  return signInWithPassword(ctx, origin, found, input, 'INVALID_EMAIL_OR_PASSWORD')
}

/**
 * The password check and what follows it, shared by the email and username sign-ins: `found` is
 * the account the identifier names, if any; without one the password is hashed all the same.
 */
export const signInWithPassword = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  found: FoundCredential | undefined,
  input: { password: string; rememberMe: boolean; callbackURL: string | null },
  failure: 'INVALID_EMAIL_OR_PASSWORD' | 'INVALID_USERNAME_OR_PASSWORD',
): Promise<SignedIn> => {
  const passwordMatches = found?.passwordHash
    ? await verifyPassword(found.passwordHash, input.password)
    : await burnPasswordCheck(input.password)
  if (!found) throw AUTH_ERRORS.error(failure)
  if (!passwordMatches) throw failedSignIn(ctx, origin, found.user.id, failure)
  if (ctx.config.emailAndPassword.requireEmailVerification && !found.user.email_verified) {
    // A fresh link, so the person can act on the refusal straight away.
    await runUserCommand(
      ctx,
      origin,
      found.user.id,
      { type: 'request-verification-email', email: found.user.email, callbackURL: input.callbackURL },
      { type: 'anonymous' },
    )
    throw AUTH_ERRORS.error('EMAIL_NOT_VERIFIED')
  }

  return { user: found.user, rememberMe: input.rememberMe, factor: 'password' }
}

/**
 * The 401 for a wrong password on an account that exists, carrying the `user.sign-in-failed` to
 * append once it has been sent (the route's `refuseThenRecord`): the owner sees the attempt in
 * their activity, and nobody learns from the answer's timing that the account exists. The
 * aggregate keeps it to one a minute.
 */
const failedSignIn = (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  failure: 'INVALID_EMAIL_OR_PASSWORD' | 'INVALID_USERNAME_OR_PASSWORD',
): RefusalWithRecord =>
  new RefusalWithRecord(AUTH_ERRORS.error(failure), async () => {
    const now = ctx.clock().toISOString()
    await runUserCommand(ctx, origin, userId, { type: 'record-sign-in-failure', now }, { type: 'anonymous' })
  })
