/// Second-factor codes that must never be stored in the clear. A mailed code is derived from a
/// random request id under the server secret (like derived-tokens.ts), so the mail reactor can put
/// it in the mail while the log keeps only a keyed hash: six digits are a million guesses, which a
/// plain SHA-256 would not protect, a hash under the secret does. Backup codes are long enough for
/// a plain SHA-256 and are shown once, when made.

import { hmacSha256, type Secret } from './hmac.js'
import { ALPHANUMERIC, randomToken, sha256Hex } from './tokens.js'

/** The mailed code for a request: `digits` decimal digits, each uniform (rejection sampling). */
export const mailedCode = (secret: Secret, requestId: string, digits: number): string => {
  let code = ''
  for (let round = 0; code.length < digits; round++) {
    for (const byte of hmacSha256(secret, `tessera:two-factor-otp:${requestId}:${round}`)) {
      if (byte >= 250) continue
      code += String(byte % 10)
      if (code.length === digits) break
    }
  }
  return code
}

/** How a mailed code is kept: keyed by the secret and bound to its owner. */
export const mailedCodeHash = (secret: Secret, userId: string, code: string): string =>
  hmacSha256(secret, `tessera:two-factor-otp-hash:${userId}:${code}`).toString('hex')

/** better-auth's shape: `amount` codes of `length` letters and digits, a dash after the fifth. */
export const newBackupCodes = ({ amount, length }: { amount: number; length: number }): string[] =>
  Array.from({ length: amount }, () => {
    const code = randomToken(length, ALPHANUMERIC)
    return length > 5 ? `${code.slice(0, 5)}-${code.slice(5)}` : code
  })

export const backupCodeHash = (code: string): string => sha256Hex(code.trim())
