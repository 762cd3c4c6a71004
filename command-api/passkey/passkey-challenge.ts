/// The challenge of a WebAuthn ceremony, kept as better-auth keeps it: a random token in a signed
/// cookie (`better-auth.better-auth-passkey`, five minutes) names a server-side record holding the
/// challenge (projections/passkeys/passkey-challenges.ts, under the token's SHA-256). Verifying takes
/// the record, so a challenge works once, and only in the browser that asked for it: another browser
/// has no cookie naming it, and a response signed over someone else's challenge does not match the
/// one this browser's record holds.

import { AUTH_ERRORS } from '../../domain/errors.js'
import { acceptedSecrets } from '../../infra/config/config.js'
import { signCookieValue, unsignCookieValue } from '../../infra/crypto/signed-cookie.js'
import { ALPHANUMERIC, randomToken, sha256Hex } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'

export const CHALLENGE_LIFETIME_SECONDS = 300

export type Ceremony = 'registration' | 'authentication'

export type ChallengeCookie = { name: string; value: string; maxAge: number }

export const challengeCookieName = (secure: boolean): string =>
  `${secure ? '__Secure-' : ''}better-auth.better-auth-passkey`

/** Records the challenge and answers the cookie that names it. */
export const issueChallenge = async (
  ctx: Pick<CommandContext, 'lookups' | 'clock' | 'config'>,
  ceremony: Ceremony,
  challenge: string,
  userId: string | null,
): Promise<ChallengeCookie> => {
  const token = randomToken(32, ALPHANUMERIC)
  const now = ctx.clock()
  await ctx.lookups.passkeys.saveChallenge(
    {
      token_hash: sha256Hex(token),
      ceremony,
      challenge,
      user_id: userId,
      expires_at: new Date(now.getTime() + CHALLENGE_LIFETIME_SECONDS * 1000),
    },
    now,
  )
  return {
    name: challengeCookieName(ctx.config.secureCookies),
    value: signCookieValue(token, ctx.config.secret),
    maxAge: CHALLENGE_LIFETIME_SECONDS,
  }
}

/**
 * The challenge this browser's cookie names, taken (deleted) as it is read. No cookie, a forged or
 * unknown one, one already used, an expired one, or one of the other ceremony: CHALLENGE_NOT_FOUND.
 */
export const spendChallenge = async (
  ctx: Pick<CommandContext, 'lookups' | 'clock' | 'config'>,
  cookieValue: string | undefined,
  ceremony: Ceremony,
): Promise<{ challenge: string; userId: string | null }> => {
  const token = cookieValue ? unsignCookieValue(cookieValue, acceptedSecrets(ctx.config)) : null
  if (!token) throw AUTH_ERRORS.error('CHALLENGE_NOT_FOUND')
  const taken = await ctx.lookups.passkeys.takeChallenge(sha256Hex(token))
  if (!taken || taken.ceremony !== ceremony || new Date(taken.expires_at).getTime() <= ctx.clock().getTime())
    throw AUTH_ERRORS.error('CHALLENGE_NOT_FOUND')
  return { challenge: taken.challenge, userId: taken.user_id }
}
