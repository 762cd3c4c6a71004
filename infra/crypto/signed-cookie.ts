/// Signed cookie values, byte-compatible with better-auth (better-call): `<value>.<signature>`,
/// the signature being the padded standard base64 of HMAC-SHA256(secret, value), 44 characters.
/// URL-encoding the result for the Set-Cookie header is the cookie serializer's job.

import { timingSafeEqual } from 'node:crypto'
import { hmacSha256, type Secret } from './hmac.js'

const SIGNATURE_LENGTH = 44

const signatureOf = (value: string, secret: Secret): string => hmacSha256(secret, value).toString('base64')

export const signCookieValue = (value: string, secret: Secret): string =>
  `${value}.${signatureOf(value, secret)}`

/**
 * The value when its signature is good under one of `secrets` (the current secret, then the ones a
 * rotation retired); null when the signature is missing, malformed or wrong under every one.
 */
export const unsignCookieValue = (signed: string, secrets: Secret | readonly Secret[]): string | null => {
  const dot = signed.lastIndexOf('.')
  if (dot < 1) return null
  const value = signed.slice(0, dot)
  const signature = signed.slice(dot + 1)
  if (signature.length !== SIGNATURE_LENGTH) return null
  const given = Buffer.from(signature, 'utf8')
  // Every secret is tried, matched or not: the time says nothing about which one signed.
  let good = false
  for (const secret of secretList(secrets)) {
    // Both sides are 44 ASCII characters, so the comparison time says nothing about the secret.
    const expected = Buffer.from(signatureOf(value, secret), 'utf8')
    if (given.length === expected.length && timingSafeEqual(given, expected)) good = true
  }
  return good ? value : null
}

export const secretList = (secrets: Secret | readonly Secret[]): readonly Secret[] =>
  typeof secrets === 'string' || secrets instanceof Uint8Array ? [secrets] : secrets
