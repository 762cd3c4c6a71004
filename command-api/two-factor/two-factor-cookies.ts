/// The two-factor cookies, named as better-auth names them: `<prefix>.two_factor` holds a sign-in
/// waiting for its second step (10 minutes), `<prefix>.trust_device` a device that may skip it (30
/// days). Both are signed like the session cookie and carry `<userId>!<token>`; the log keeps only
/// the token's SHA-256, so a copy of the database cannot finish anyone's sign-in.

import type { FastifyReply, FastifyRequest } from 'fastify'
import { signCookieValue, unsignCookieValue } from '../../infra/crypto/signed-cookie.js'
import { clearCookie, type SessionCookieSettings, verifyingSecrets } from '../../infra/http/session-cookie.js'

type CookieKind = 'two_factor' | 'trust_device'

export const twoFactorCookieName = (secure: boolean, kind: CookieKind): string =>
  `${secure ? '__Secure-better-auth' : 'better-auth'}.${kind}`

/** What a two-factor cookie carries: whose sign-in (or device) it is, and the token itself. */
export type CookieGrant = { userId: string; token: string }

export const setTwoFactorCookie = (
  reply: FastifyReply,
  kind: CookieKind,
  grant: CookieGrant,
  maxAge: number,
  settings: SessionCookieSettings,
): void => {
  reply.setCookie(
    twoFactorCookieName(settings.secure, kind),
    signCookieValue(`${grant.userId}!${grant.token}`, settings.secret),
    { path: '/', httpOnly: true, sameSite: 'lax', secure: settings.secure, maxAge },
  )
}

export const readTwoFactorCookie = (
  request: FastifyRequest,
  kind: CookieKind,
  settings: SessionCookieSettings,
): CookieGrant | null => {
  const signed = request.cookies[twoFactorCookieName(settings.secure, kind)]
  const value = signed ? unsignCookieValue(signed, verifyingSecrets(settings)) : null
  const bang = value?.indexOf('!') ?? -1
  if (!value || bang < 1 || bang === value.length - 1) return null
  return { userId: value.slice(0, bang), token: value.slice(bang + 1) }
}

export const clearTwoFactorCookie = (
  reply: FastifyReply,
  kind: CookieKind,
  settings: SessionCookieSettings,
) => clearCookie(reply, twoFactorCookieName(settings.secure, kind), settings)
