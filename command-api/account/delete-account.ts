/// Deleting an account: proven by the password or a fresh session, then either at once or through a
/// mailed link (the default). Deletion ends every session, removes the read-model rows, and erases
/// the user's personal data from the log by destroying their data key. The route clears the cookies
/// when the answer is 'User deleted'.

import { AUTH_ERRORS, errorWithStatus } from '../../domain/errors.js'
import { isDomainError } from '../../domain/shared/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import type { OwnerProof } from '../../domain/user/user.commands.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { issueToken } from '../../infra/crypto/derived-tokens.js'
import { verifyPassword } from '../../infra/crypto/password.js'
import { newId, sha256Hex } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { afterAccountDeletion, beforeAccountDeletion } from '../organization/account-deletion.js'
import { isSessionFresh } from '../shared/fresh-session.js'
import { runUserCommand } from '../shared/run-user-command.js'

/** Deletion links live one day (spec). */
const DELETE_TOKEN_SECONDS = 86_400

export type DeletionAnswer = 'User deleted' | 'Verification email sent'

/** The person's proof, checked here (the slow hash, the session's age) and judged by the decider. */
const proofOf = async (
  ctx: CommandContext,
  auth: FoundSession,
  password: string | null,
): Promise<OwnerProof> => {
  if (password !== null) {
    const stored = await ctx.lookups.users.passwordHashOf(auth.user.id)
    return { kind: 'password', matches: stored ? await verifyPassword(stored, password) : false }
  }
  return { kind: 'fresh-session', fresh: isSessionFresh(ctx, auth.session.created_at) }
}

const deleteNow = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  proof: OwnerProof | { kind: 'token'; tokenHash: string; now: string },
) => {
  // The organizations the person alone owns (command-api/organization/account-deletion.ts).
  const departing = await beforeAccountDeletion(ctx, userId)
  // The address is told, by a mail the reactor sends once the deletion has committed.
  await runUserCommand(ctx, origin, userId, {
    type: 'delete-user',
    proof,
    noticeId: newId(),
    alsoErases: departing.inviteeKeys,
    soleOwnerOf: departing.soleOwnerOf,
  })
  await afterAccountDeletion(ctx, origin, departing)
  await ctx.eraseUser(userId)
}

export const deleteAccount = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: { password: string | null; token: string | null; callbackURL: string | null },
): Promise<DeletionAnswer> => {
  if (!ctx.config.user.deleteUser.enabled) throw AUTH_ERRORS.error('NOT_FOUND')
  if (input.token !== null) {
    await deleteWithToken(ctx, origin, auth, input.token)
    return 'User deleted'
  }
  const proof = await proofOf(ctx, auth, input.password)
  if (ctx.config.user.deleteUser.immediate) {
    await deleteNow(ctx, origin, auth.user.id, proof)
    return 'User deleted'
  }
  const { requestId, tokenHash } = issueToken(ctx.config.secret, 'delete-account')
  const now = ctx.clock()
  const expiresAt = new Date(now.getTime() + DELETE_TOKEN_SECONDS * 1000).toISOString()
  await runUserCommand(ctx, origin, auth.user.id, {
    type: 'request-deletion',
    proof,
    requestId,
    tokenHash,
    expiresAt,
    callbackURL: input.callbackURL,
    now: now.toISOString(),
  })
  return 'Verification email sent'
}

/**
 * Whether a deletion link could still delete an account: its token is outstanding and unexpired.
 * Read before a signed-out browser is sent to sign in, so that a used or expired link (the account
 * may already be gone) says so at once instead of asking for a sign-in that cannot succeed. The
 * token carries about 165 random bits: nobody learns anything by probing for live ones.
 */
export const deletionLinkIsLive = async (ctx: CommandContext, token: string): Promise<boolean> => {
  const found = await ctx.lookups.oneTimeTokens.find(sha256Hex(token), 'delete-account')
  return found !== undefined && found.expires_at.getTime() > ctx.clock().getTime()
}

/**
 * The mailed link (or its token posted back): the user decider accepts only a live deletion link of
 * the signed-in person's own (someone else's is not one). Its refusal is answered 404 'Invalid
 * token' here, as better-auth answers it on this route (an unknown reset token is 400).
 */
export const deleteWithToken = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  token: string,
): Promise<void> => {
  const tokenHash = sha256Hex(token)
  try {
    await deleteNow(ctx, origin, auth.user.id, { kind: 'token', tokenHash, now: ctx.clock().toISOString() })
  } catch (error) {
    // Someone else's, an expired or an already used token: the same answer.
    if (isDomainError(error) && error.code === 'INVALID_TOKEN') throw errorWithStatus('INVALID_TOKEN', 404)
    throw error
  }
}
