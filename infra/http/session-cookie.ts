/// The session cookies, named and shaped as better-auth names them (so apps that look for
/// `better-auth.session_token` keep working): a signed token, HttpOnly, SameSite=Lax, Secure and
/// `__Secure-`-prefixed on https, Max-Age at most 400 days. Without remember-me the token cookie
/// has no Max-Age (it ends with the browser) and a signed `dont_remember` cookie says so.

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Secret } from '../crypto/hmac.js'
import { signCookieValue, unsignCookieValue } from '../crypto/signed-cookie.js'

const COOKIE_PREFIX = 'better-auth'
const MAX_COOKIE_AGE_SECONDS = 34_560_000

export type SessionCookieSettings = {
  secret: Secret
  secure: boolean
  /** Session lifetime in seconds: the token cookie's Max-Age when remembered. */
  expiresIn: number
}

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
  reply.setCookie(names.sessionToken, signCookieValue(token, settings.secret), {
    ...attributes(settings.secure),
    ...(rememberMe ? { maxAge } : {}),
  })
  if (rememberMe) return
  reply.setCookie(names.dontRemember, signCookieValue('true', settings.secret), attributes(settings.secure))
}

export const clearSessionCookies = (
  reply: FastifyReply,
  settings: Pick<SessionCookieSettings, 'secure'>,
): void => {
  const names = cookieNames(settings.secure)
  for (const name of [names.sessionToken, names.dontRemember])
    reply.setCookie(name, '', { ...attributes(settings.secure), maxAge: 0 })
}

/** The raw session token from a correctly signed cookie, or null. */
export const readSessionToken = (request: FastifyRequest, settings: SessionCookieSettings): string | null => {
  const signed = request.cookies[cookieNames(settings.secure).sessionToken]
  return signed ? unsignCookieValue(signed, settings.secret) : null
}

export const hasDontRememberCookie = (request: FastifyRequest, settings: SessionCookieSettings): boolean => {
  const signed = request.cookies[cookieNames(settings.secure).dontRemember]
  return signed !== undefined && unsignCookieValue(signed, settings.secret) === 'true'
}
