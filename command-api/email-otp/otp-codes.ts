/// Issuing and entering email one-time codes. A code's stream is named by an HMAC of its purpose
/// and address under the claim key (never the address itself); the code is derived from a random
/// request id with the secret, so the mail reactor can write it out while the log keeps only its
/// HMAC under the secret, bound to the stream (infra/crypto/code-hash.ts); an entered code is
/// hashed under every accepted secret, so a rotation of AUTH_SECRET does not void a code in flight.

import { emailOtpDecider, emailOtpStream, type OtpType, refusalOf } from '../../domain/email-otp/email-otp.js'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { acceptedSecrets } from '../../infra/config/config.js'
import { codeHashCandidates, keyedCodeHash } from '../../infra/crypto/code-hash.js'
import { issueToken } from '../../infra/crypto/derived-tokens.js'
import { hmacSha256 } from '../../infra/crypto/hmac.js'
import type { CommandContext } from '../context.js'
import { addressSubjectOf } from '../passwordless/proven-address.js'

/** Whose codes: a purpose and an address (for `change-email`, the current and the new one). */
export type CodeSlot = { otpType: OtpType; email: string; newEmail?: string }

const streamOf = async (ctx: CommandContext, { otpType, email, newEmail }: CodeSlot): Promise<string> => {
  const key = await ctx.personKeys.claimKey()
  const name = `email-otp:${otpType}:${email}${newEmail === undefined ? '' : `-${newEmail}`}`
  return emailOtpStream(hmacSha256(key, name).toString('base64url'))
}

/** Mails a fresh code for the slot (to `newEmail` for a change of address), replacing the last one. */
export const issueCode = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  slot: CodeSlot,
  userId: string | null,
): Promise<void> => {
  const { otpLength, expiresIn } = ctx.config.emailOTP
  const { requestId, token } = issueToken(ctx.config.secret, 'email-otp', otpLength)
  const now = ctx.clock()
  const actor = userId !== null && slot.otpType === 'change-email' ? { type: 'user' as const, userId } : null
  const stream = await streamOf(ctx, slot)
  await ctx.handle(
    emailOtpDecider,
    stream,
    {
      type: 'issue-code',
      requestId,
      codeHash: keyedCodeHash(ctx.config.secret, stream, token),
      length: otpLength,
      otpType: slot.otpType,
      email: slot.email,
      newEmail: slot.newEmail ?? null,
      expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString(),
      userId,
      addressSubject: await addressSubjectOf(ctx, slot.newEmail ?? slot.email),
    },
    { metadata: metadataFor(origin, actor ?? { type: 'anonymous' }, now) },
  )
}

/**
 * Enters `otp` for the slot: a wrong guess is counted, an expired or exhausted code voided, each
 * then refused with better-auth's code; a right one is used up when `consume`. Returns the hash of
 * the code that was accepted, as it was recorded.
 */
export const enterCode = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  slot: CodeSlot,
  otp: string,
  consume: boolean,
): Promise<string> => {
  const now = ctx.clock()
  const stream = await streamOf(ctx, slot)
  const { events, state } = await ctx.handle(
    emailOtpDecider,
    stream,
    {
      type: 'enter-code',
      submittedHashes: codeHashCandidates(acceptedSecrets(ctx.config), stream, otp),
      now: now.toISOString(),
      allowedAttempts: ctx.config.emailOTP.allowedAttempts,
      consume,
    },
    { metadata: metadataFor(origin, { type: 'anonymous' }, now) },
  )
  const refusal = refusalOf(events)
  if (refusal) throw AUTH_ERRORS.error(refusal)
  // `decide` refuses anything but a live code, so a code that passed has its issue in the state.
  if (state.status === 'none') throw new Error('an accepted email code reads as never issued')
  return state.code.codeHash
}
