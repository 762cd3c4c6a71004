/// Magic links (better-auth's magicLink plugin): a request mails a sign-in link to any well-formed
/// address (an account or not, the answer and its timing are the same: the link is recorded after
/// the answer went out), and following the link uses it up and gives the account of the address,
/// signing one up when that is allowed.

import { invalidBodyField } from '../../domain/errors.js'
import {
  type MagicLinkRequest,
  magicLinkDecider,
  magicLinkStream,
} from '../../domain/magic-link/magic-link.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import { issueToken } from '../../infra/crypto/derived-tokens.js'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { addressSubjectOf } from '../passwordless/proven-address.js'

export type MagicLinkRequestInput = {
  email: string
  name: string | null
  callbackURL: string | null
  newUserCallbackURL: string | null
  errorCallbackURL: string | null
}

/**
 * Checks the address and looks it up (so a known address costs what an unknown one does), and
 * returns the recording of the link, to run once the answer has gone out.
 */
export const requestMagicLink = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: MagicLinkRequestInput,
): Promise<() => Promise<void>> => {
  // better-auth's body schema refuses a malformed address before anything else (400).
  if (!isValidEmail(input.email)) throw invalidBodyField('email', 'Invalid email address')
  const email = normalizeEmail(input.email)
  const user = await ctx.lookups.users.byEmail(email)
  return async () => {
    const { requestId, tokenHash } = issueToken(ctx.config.secret, 'magic-link')
    const now = ctx.clock()
    const expiresAt = new Date(now.getTime() + ctx.config.magicLink.expiresIn * 1000).toISOString()
    await ctx.handle(
      magicLinkDecider,
      magicLinkStream(tokenHash),
      {
        type: 'request-magic-link',
        tokenHash,
        requestId,
        email,
        name: input.name,
        // The link always names where to go (better-auth: `/` when the request named nothing).
        callbackURL: input.callbackURL || '/',
        newUserCallbackURL: input.newUserCallbackURL || null,
        errorCallbackURL: input.errorCallbackURL || null,
        expiresAt,
        userId: user?.id ?? null,
        addressSubject: await addressSubjectOf(ctx, email),
      },
      { metadata: metadataFor(origin, { type: 'anonymous' }, now), newStream: true },
    )
  }
}

/** Uses the link up: its request (address, name) once, or INVALID_TOKEN (unknown, used, expired). */
export const spendMagicLink = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  token: string,
): Promise<MagicLinkRequest> => {
  const tokenHash = sha256Hex(token)
  const now = ctx.clock()
  const { state } = await ctx.handle(
    magicLinkDecider,
    magicLinkStream(tokenHash),
    { type: 'use-magic-link', tokenHash, now: now.toISOString() },
    { metadata: metadataFor(origin, { type: 'anonymous' }, now) },
  )
  // `decide` refuses anything but a pending link, so after the use the link is used.
  if (state.status !== 'used') throw new Error('a used magic link reads as unused')
  return state
}
