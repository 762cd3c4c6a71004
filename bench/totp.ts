/// TOTP codes (RFC 6238 over RFC 4226's HOTP, HMAC-SHA-1) computed in the harness from the secret
/// an authenticator app would read from the `totpURI`, as the two-factor scenario's users type them.

import { createHmac } from 'node:crypto'

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** RFC 4648 base32 (the `secret` of an otpauth URI), padding and case ignored. */
export const base32Decode = (text: string): Buffer => {
  const bytes: number[] = []
  let bits = 0
  let value = 0
  for (const char of text.toUpperCase().replace(/=+$/, '')) {
    const index = BASE32.indexOf(char)
    if (index < 0) throw new Error(`not base32: ${char}`)
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((value >>> bits) & 0xff)
    }
  }
  return Buffer.from(bytes)
}

/** The time step a moment falls in (RFC 6238's T, from T0 = 0). */
export const timeStep = (unixMs: number, periodSeconds = 30): number =>
  Math.floor(unixMs / 1000 / periodSeconds)

/** HOTP (RFC 4226) of a counter: dynamic truncation, then the last `digits` decimal digits. */
export const hotp = (key: Buffer, counter: number, digits = 6): string => {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac('sha1', key).update(message).digest()
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/** The secret of an `otpauth://totp/...?secret=...` URI, as key bytes. */
export const secretOfUri = (uri: string): Buffer => {
  const secret = new URL(uri).searchParams.get('secret')
  if (!secret) throw new Error(`no secret in ${uri}`)
  return base32Decode(secret)
}
