/// How a short code mailed to a person (an email one-time code: six digits by default) is kept. A
/// million possible codes make a bare SHA-256 worthless once the log leaks: every hash is reversed
/// in a second. So a code is kept as an HMAC under AUTH_SECRET, which the database does not hold,
/// bound to the slot it was mailed for (the same code in two slots hashes differently).
///
/// AUTH_SECRET can rotate (AUTH_SECRET_PREVIOUS keeps the old ones accepted): a code is hashed under
/// the current secret when issued, and an entered code under every accepted secret, so a code issued
/// just before a rotation still checks after it.

import { hmacSha256, type Secret } from './hmac.js'

export const keyedCodeHash = (secret: Secret, slot: string, code: string): string =>
  hmacSha256(secret, `tessera:code-hash:${slot}:${code}`).toString('hex')

/** The entered code's hash under each accepted secret, current first: what the decider matches. */
export const codeHashCandidates = (secrets: readonly Secret[], slot: string, code: string): string[] =>
  secrets.map((secret) => keyedCodeHash(secret, slot, code))
