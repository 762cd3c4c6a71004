/// Signed cookie values, byte-compatible with better-auth (better-call): `<value>.<signature>`,
/// the signature being the padded standard base64 of HMAC-SHA256(secret, value), 44 characters.
/// URL-encoding the result for the Set-Cookie header is the cookie serializer's job.

import { timingSafeEqual } from 'node:crypto'
import { hmacSha256, type Secret } from './hmac.js'

const SIGNATURE_LENGTH = 44

const signatureOf = (value: string, secret: Secret): string => hmacSha256(secret, value).toString('base64')

export const signCookieValue = (value: string, secret: Secret): string =>
  `${value}.${signatureOf(value, secret)}`

/** The value when its signature is good; null when the signature is missing, malformed or wrong. */
export const unsignCookieValue = (signed: string, secret: Secret): string | null => {
  const dot = signed.lastIndexOf('.')
  if (dot < 1) return null
  const value = signed.slice(0, dot)
  const signature = signed.slice(dot + 1)
  if (signature.length !== SIGNATURE_LENGTH) return null
  // Both sides are 44 ASCII characters, so the comparison time says nothing about the secret.
  const expected = Buffer.from(signatureOf(value, secret), 'utf8')
  const given = Buffer.from(signature, 'utf8')
  if (given.length !== expected.length) return null
  return timingSafeEqual(given, expected) ? value : null
}
