/// Changing a password (with the current one), and setting one server-side for a user who has none.

import type { Actor, RequestOrigin } from '../../domain/shared/metadata.js'
import { assertPasswordPolicy } from '../../domain/user/password-policy.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { hashPassword, samePassword, verifyPassword } from '../../infra/crypto/password.js'
import { newId } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { passwordLimits } from '../email-password/sign-up.js'
import { revokeSession } from '../sessions/end-session.js'
import { type StartedSession, startSession } from '../sessions/start-session.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { forgetTrustedDevices } from '../two-factor/manage-two-factor.js'

export const changePassword = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: { currentPassword: string; newPassword: string; revokeOtherSessions: boolean },
): Promise<{ session: StartedSession | null }> => {
  assertPasswordPolicy(input.newPassword, passwordLimits(ctx))
  const userId = auth.user.id
  // No password to match: the decider refuses (CREDENTIAL_ACCOUNT_NOT_FOUND) before it looks at one.
  const stored = await ctx.lookups.users.passwordHashOf(userId)
  const [currentPasswordMatches, passwordHash] = await Promise.all([
    stored ? verifyPassword(stored, input.currentPassword) : false,
    hashPassword(input.newPassword),
  ])
  await runUserCommand(ctx, origin, userId, {
    type: 'change-password',
    currentPasswordMatches,
    passwordHash,
    // The current password matched the hash, so the two texts being equal means the same password.
    sameAsCurrent: currentPasswordMatches && samePassword(input.newPassword, input.currentPassword),
  })
  // A new password ends every device trusted to skip the second step.
  await forgetTrustedDevices(ctx, origin, userId, 'password-changed')
  if (!input.revokeOtherSessions) return { session: null }
  // Every session ends, this one too, and the caller gets a fresh one: a stolen copy of the old
  // cookie is worthless afterwards.
  for (const session of await ctx.lookups.sessions.ofUser(userId))
    await revokeSession(ctx, origin, {
      sessionId: session.id,
      requestedBy: userId,
      reason: 'revoked-others',
    })
  return { session: await startSession(ctx, origin, { userId, rememberMe: auth.session.remember_me }) }
}

/** Server-side only (the CLI, the server API): gives a password to a user who has none. */
export const setPassword = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { userId, newPassword }: { userId: string; newPassword: string },
  actor: Actor = { type: 'system' },
): Promise<void> => {
  assertPasswordPolicy(newPassword, passwordLimits(ctx))
  const passwordHash = await hashPassword(newPassword)
  await runUserCommand(ctx, origin, userId, { type: 'set-password', accountId: newId(), passwordHash }, actor)
}
