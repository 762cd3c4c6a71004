/// One-time tokens that must reach a mail without ever being stored: the command records a random
/// `requestId` and the token's SHA-256; the mail reactor derives the same token from the requestId
/// with the server secret (HMAC-SHA256 as a PRF, then uniform sampling into the alphabet). The raw
/// token exists only in the mail and in the link the person follows.

import { hmacSha256, type Secret } from './hmac.js'
import { ALPHANUMERIC, LOWERCASE_ALPHANUMERIC, randomToken, sha256Hex } from './tokens.js'

export type TokenPurpose = 'password-reset' | 'delete-account' | 'magic-link' | 'email-otp'

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'

const SHAPES: Record<TokenPurpose, { length: number; alphabet: string }> = {
  'password-reset': { length: 24, alphabet: ALPHANUMERIC },
  'delete-account': { length: 32, alphabet: LOWERCASE_ALPHANUMERIC },
  // As better-auth's magicLink (32 letters) and emailOTP (otpLength digits, 6 by default).
  'magic-link': { length: 32, alphabet: LETTERS },
  'email-otp': { length: 6, alphabet: DIGITS },
}

/** A fresh, unguessable request id (32 alphanumerics, ~190 bits from the CSPRNG). */
export const newRequestId = (): string => randomToken(32, ALPHANUMERIC)

/** `length` overrides the purpose's own (an email code's configured number of digits). */
export const deriveToken = (
  secret: Secret,
  purpose: TokenPurpose,
  requestId: string,
  length = SHAPES[purpose].length,
): string => {
  const { alphabet } = SHAPES[purpose]
  const limit = 256 - (256 % alphabet.length)
  let token = ''
  // Each round of HMAC output is 32 bytes; rejection sampling keeps every character uniform.
  for (let round = 0; token.length < length; round++) {
    for (const byte of hmacSha256(secret, `tessera:${purpose}:${requestId}:${round}`)) {
      if (byte >= limit) continue
      token += alphabet.charAt(byte % alphabet.length)
      if (token.length === length) break
    }
  }
  return token
}

/** How a token is kept at rest: its SHA-256, or for a short code a keyed hash (code-hash.ts). */
export type TokenHasher = (secret: Secret, token: string) => string
const bareSha256: TokenHasher = (_secret, token) => sha256Hex(token)

/**
 * The token a request's mail carries: derived under whichever accepted secret (current first) the
 * command used, recognised by its hash. A request made just before a rotation of AUTH_SECRET was
 * hashed under the old secret; its mail, composed after, must carry that token. Null when no
 * accepted secret gives the hash (the secret that made it was removed).
 */
export const deriveRecordedToken = (
  secrets: readonly Secret[],
  purpose: TokenPurpose,
  requestId: string,
  tokenHash: string,
  length?: number,
  hashOf: TokenHasher = bareSha256,
): string | null => {
  for (const secret of secrets) {
    const token = deriveToken(secret, purpose, requestId, length)
    if (hashOf(secret, token) === tokenHash) return token
  }
  return null
}

/** The token for a request and its hash at rest, computed together when the request is made. */
export const issueToken = (secret: Secret, purpose: TokenPurpose, length?: number) => {
  const requestId = newRequestId()
  const token = deriveToken(secret, purpose, requestId, length)
  return { requestId, token, tokenHash: sha256Hex(token) }
}
