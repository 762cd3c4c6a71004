/// The session cookies, named and shaped as better-auth names them (so apps that look for
/// `better-auth.session_token` keep working): a signed token, HttpOnly, SameSite=Lax, Secure and
/// `__Secure-`-prefixed on https, Max-Age at most 400 days. Without remember-me the token cookie
/// has no Max-Age (it ends with the browser) and a signed `dont_remember` cookie says so.
/// Every answer that sets the token cookie also carries the signed value in `set-auth-token`, for
/// clients that keep no cookies and send it back as `Authorization: Bearer` (bearer-token.ts).
/// Each account signed in on a device also has its own signed cookie, named after its token as
/// better-auth's multi-session plugin names it: `<prefix>.session_token_multi-<token lowercased>`.

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Secret } from '../crypto/hmac.js'
import { signCookieValue, unsignCookieValue } from '../crypto/signed-cookie.js'

const COOKIE_PREFIX = 'better-auth'
const MAX_COOKIE_AGE_SECONDS = 34_560_000
const DEVICE_SESSION_MARK = '_multi-'

/** The answer header that hands the signed session token to bearer clients. */
export const AUTH_TOKEN_HEADER = 'set-auth-token'

export type SessionCookieSettings = {
  /** Signs every cookie (AUTH_SECRET). */
  secret: Secret
  /** Retired secrets (AUTH_SECRET_PREVIOUS): cookies they signed stay good until they expire. */
  previousSecrets?: readonly Secret[]
  secure: boolean
  /** Session lifetime in seconds: the token cookie's Max-Age when remembered. */
  expiresIn: number
}

/** What a signature may be made under: the current secret, then the retired ones. */
export const verifyingSecrets = (settings: Pick<SessionCookieSettings, 'secret' | 'previousSecrets'>) => [
  settings.secret,
  ...(settings.previousSecrets ?? []),
]

export const cookieNames = (secure: boolean) => {
  const prefix = secure ? `__Secure-${COOKIE_PREFIX}` : COOKIE_PREFIX
  return { sessionToken: `${prefix}.session_token`, dontRemember: `${prefix}.dont_remember` }
}

const attributes = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure })

export const setSessionCookie = (
  reply: FastifyReply,
  { token, rememberMe }: { token: string; rememberMe: boolean },
  settings: SessionCookieSettings,
): void => {
  const names = cookieNames(settings.secure)
  const maxAge = Math.min(settings.expiresIn, MAX_COOKIE_AGE_SECONDS)
  const signed = signCookieValue(token, settings.secret)
  reply.setCookie(names.sessionToken, signed, {
    ...attributes(settings.secure),
    ...(rememberMe ? { maxAge } : {}),
  })
  reply.header(AUTH_TOKEN_HEADER, signed)
  if (rememberMe) return
  reply.setCookie(names.dontRemember, signCookieValue('true', settings.secret), attributes(settings.secure))
}

export const clearSessionCookies = (
  reply: FastifyReply,
  settings: Pick<SessionCookieSettings, 'secure'>,
): void => {
  const names = cookieNames(settings.secure)
  for (const name of [names.sessionToken, names.dontRemember]) clearCookie(reply, name, settings)
  reply.removeHeader(AUTH_TOKEN_HEADER)
}

/** The raw token of the session cookie this answer sets, if it sets one. */
export const sessionTokenSetBy = (reply: FastifyReply): string | null => {
  const signed = reply.getHeader(AUTH_TOKEN_HEADER)
  return typeof signed === 'string' ? signed.slice(0, signed.lastIndexOf('.')) : null
}

export const clearCookie = (
  reply: FastifyReply,
  name: string,
  settings: Pick<SessionCookieSettings, 'secure'>,
) => reply.setCookie(name, '', { ...attributes(settings.secure), maxAge: 0 })

/** The raw session token from a correctly signed cookie, or null. */
export const readSessionToken = (request: FastifyRequest, settings: SessionCookieSettings): string | null => {
  const signed = request.cookies[cookieNames(settings.secure).sessionToken]
  return signed ? unsignCookieValue(signed, verifyingSecrets(settings)) : null
}

export const hasDontRememberCookie = (request: FastifyRequest, settings: SessionCookieSettings): boolean => {
  const signed = request.cookies[cookieNames(settings.secure).dontRemember]
  return signed !== undefined && unsignCookieValue(signed, verifyingSecrets(settings)) === 'true'
}

/// Device sessions (multi-session)

export const deviceSessionCookieName = (secure: boolean, token: string): string =>
  `${cookieNames(secure).sessionToken}${DEVICE_SESSION_MARK}${token.toLowerCase()}`

/** A correctly signed per-session cookie the device holds: its name and the session token in it. */
export type DeviceSessionCookie = { name: string; token: string }

export const readDeviceSessionCookies = (
  request: FastifyRequest,
  settings: SessionCookieSettings,
): DeviceSessionCookie[] => {
  const prefix = `${cookieNames(settings.secure).sessionToken}${DEVICE_SESSION_MARK}`
  const found: DeviceSessionCookie[] = []
  for (const [name, signed] of Object.entries(request.cookies)) {
    if (!name.startsWith(prefix) || !signed) continue
    const token = unsignCookieValue(signed, verifyingSecrets(settings))
    if (token) found.push({ name, token })
  }
  return found
}

/** Like the token cookie's, but always with the session lifetime as Max-Age, as better-auth sets it. */
export const setDeviceSessionCookie = (reply: FastifyReply, token: string, settings: SessionCookieSettings) =>
  reply.setCookie(deviceSessionCookieName(settings.secure, token), signCookieValue(token, settings.secret), {
    ...attributes(settings.secure),
    maxAge: Math.min(settings.expiresIn, MAX_COOKIE_AGE_SECONDS),
  })
