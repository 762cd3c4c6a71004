/// Email verification tokens: HS256 JWTs signed with the server secret, 1 hour by default, as
/// better-auth issues them: `{ email, updateTo? }`. `purpose` separates the two change-email steps
/// from a plain verification so one link cannot be replayed as another.

import { errors, jwtVerify, SignJWT } from 'jose'

export type EmailTokenPurpose = 'verify-email' | 'confirm-email-change' | 'verify-new-email'

export type EmailTokenClaims = { email: string; updateTo?: string; purpose: EmailTokenPurpose }

const keyOf = (secret: string) => new TextEncoder().encode(secret)

export const signEmailToken = (
  secret: string,
  claims: EmailTokenClaims,
  { now, expiresInSeconds }: { now: Date; expiresInSeconds: number },
): Promise<string> => {
  const issuedAt = Math.floor(now.getTime() / 1000)
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + expiresInSeconds)
    .sign(keyOf(secret))
}

export type EmailTokenCheck =
  | { status: 'valid'; claims: EmailTokenClaims }
  | { status: 'expired' }
  | { status: 'invalid' }

/** Checked under each of `secrets` in turn (current first), so links signed before a rotation still work. */
export const verifyEmailToken = async (
  secrets: string | readonly string[],
  token: string,
  now: Date,
): Promise<EmailTokenCheck> => {
  let check: EmailTokenCheck = { status: 'invalid' }
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    check = await verifyUnder(secret, token, now)
    // 'expired' is only said once the signature was good, so it, like 'valid', settles it.
    if (check.status !== 'invalid') return check
  }
  return check
}

const verifyUnder = async (secret: string, token: string, now: Date): Promise<EmailTokenCheck> => {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      currentDate: now,
    })
    const { email, updateTo, purpose } = payload
    if (typeof email !== 'string') return { status: 'invalid' }
    if (purpose !== 'verify-email' && purpose !== 'confirm-email-change' && purpose !== 'verify-new-email')
      return { status: 'invalid' }
    return {
      status: 'valid',
      claims: { email, purpose, ...(typeof updateTo === 'string' ? { updateTo } : {}) },
    }
  } catch (error) {
    return error instanceof errors.JWTExpired ? { status: 'expired' } : { status: 'invalid' }
  }
}
