/// Bearer mode, as better-auth's `bearer` plugin reads it: `Authorization: Bearer <credential>`
/// stands for the session cookie. The credential is the signed value `set-auth-token` handed out
/// (`<token>.<signature>`, URL-encoded or not), or the bare token; a signed value whose signature
/// does not match is no credential at all.

import type { FastifyRequest } from 'fastify'
import type { Secret } from '../crypto/hmac.js'
import { unsignCookieValue } from '../crypto/signed-cookie.js'

const SCHEME = 'bearer '

const tryDecode = (value: string): string => {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/** The raw session token the Authorization header carries, or null when it carries none. */
export const readBearerToken = (
  request: Pick<FastifyRequest, 'headers'>,
  secrets: Secret | readonly Secret[],
): string | null => {
  const header = request.headers.authorization
  if (typeof header !== 'string' || header.slice(0, SCHEME.length).toLowerCase() !== SCHEME) return null
  const credential = header.slice(SCHEME.length).trim()
  if (!credential) return null
  // Session tokens are alphanumeric: a dot means a signed value.
  if (!credential.includes('.')) return credential
  return unsignCookieValue(credential.includes('%') ? tryDecode(credential) : credential, secrets)
}
