/// TOTP (RFC 6238) over HOTP (RFC 4226), as authenticator apps expect it: HMAC-SHA-1, 30-second
/// steps, 6 digits by default, and a window of one step either side for clocks that drift. The
/// caller learns which step matched, so that a code once accepted (and any older one) can be
/// refused afterwards; the comparison is constant-time.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export type TotpSettings = { digits: number; period: number }

/** HOTP: the code for one counter value. */
export const hotp = (key: Buffer, counter: number, digits: number): string => {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac('sha1', key).update(message).digest()
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/** The time step an instant falls in. */
export const timeStep = (at: Date, period: number): number => Math.floor(at.getTime() / 1000 / period)

export const totpAt = (key: Buffer, at: Date, { digits, period }: TotpSettings): string =>
  hotp(key, timeStep(at, period), digits)

/**
 * The highest step within one of `at` whose code is `code`, or null. Every candidate is computed
 * and compared, so the time taken does not say which one matched.
 */
export const matchingStep = (key: Buffer, code: string, at: Date, settings: TotpSettings): number | null => {
  // The length is no secret: every code has `digits` digits.
  if (!/^[0-9]+$/.test(code) || code.length !== settings.digits) return null
  const current = timeStep(at, settings.period)
  const given = Buffer.from(code, 'utf8')
  let matched: number | null = null
  for (const step of [current - 1, current, current + 1]) {
    if (timingSafeEqual(given, Buffer.from(hotp(key, step, settings.digits), 'utf8'))) matched = step
  }
  return matched
}

/// Secrets and their URI

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

export const base32Encode = (bytes: Buffer): string => {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32.charAt((value >>> (bits - 5)) & 31)
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32.charAt((value << (5 - bits)) & 31)
  return out
}

export const base32Decode = (text: string): Buffer => {
  let bits = 0
  let value = 0
  const out: number[] = []
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char)
    if (index < 0) throw new RangeError('not base32')
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

/** A fresh secret: 160 bits from the CSPRNG (RFC 4226's recommended length), base32. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20))

/** The `otpauth://` URI authenticator apps read from a QR code, in better-auth's layout. */
export const totpUri = (
  secret: string,
  { issuer, account, digits, period }: TotpSettings & { issuer: string; account: string },
): string => {
  const params = new URLSearchParams({ secret, issuer, digits: String(digits), period: String(period) })
  return `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?${params.toString()}`
}
