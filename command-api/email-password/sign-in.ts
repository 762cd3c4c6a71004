/// Sign-in with email and password. Every failure is the same 401, and an unknown email still
/// costs a full password hash, so neither the answer nor its timing tells which emails exist.

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../app/server/context.js'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import { burnPasswordCheck, verifyPassword } from '../../infra/crypto/password.js'
import { findCredentialByEmail } from '../../projections/users/users.repository.js'
import type { UserRow } from '../../projections/users/users.table.js'
import { startSession } from '../sessions/start-session.js'
import { runUserCommand } from '../shared/run-user-command.js'

export type SignInInput = { email: string; password: string; rememberMe: boolean; callbackURL: string | null }

export const signIn = async (
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: SignInInput,
): Promise<{ token: string; user: UserRow }> => {
  const { config, db } = ctx
  if (!config.emailAndPassword.enabled) throw AUTH_ERRORS.error('EMAIL_PASSWORD_DISABLED')
  const found = isValidEmail(input.email)
    ? await findCredentialByEmail(db, normalizeEmail(input.email))
    : undefined
  const passwordMatches = found?.passwordHash
    ? await verifyPassword(found.passwordHash, input.password)
    : await burnPasswordCheck(input.password)
  if (!found || !passwordMatches) throw AUTH_ERRORS.error('INVALID_EMAIL_OR_PASSWORD')
  if (config.emailAndPassword.requireEmailVerification && !found.user.email_verified) {
    // A fresh link, so the person can act on the refusal straight away.
    await runUserCommand(
      ctx,
      request,
      found.user.id,
      { type: 'request-verification-email', email: found.user.email, callbackURL: input.callbackURL },
      { type: 'anonymous' },
    )
    throw AUTH_ERRORS.error('EMAIL_NOT_VERIFIED')
  }

  const { token } = await startSession(ctx, request, reply, {
    userId: found.user.id,
    rememberMe: input.rememberMe,
  })
  return { token, user: found.user }
}
