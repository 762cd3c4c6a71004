/// better-auth's `admin_session` cookie: while an operator impersonates someone, it holds the
/// operator's own session token (and whether their session was not to be remembered), signed, so
/// stop-impersonating can bring them back. Written by impersonate-user, read by stop-impersonating:
/// the format lives here once.

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Secret } from '../../infra/crypto/hmac.js'
import { signCookieValue, unsignCookieValue } from '../../infra/crypto/signed-cookie.js'
import {
  clearCookie,
  cookieNames,
  type SessionCookieSettings,
  verifyingSecrets,
} from '../../infra/http/session-cookie.js'

const nameOf = (secure: boolean) => cookieNames(secure).sessionToken.replace('session_token', 'admin_session')

export type WaitingOperator = { operatorToken: string | null; dontRemember: boolean }

export const impersonationCookie = {
  write(reply: FastifyReply, settings: SessionCookieSettings, operatorToken: string, dontRemember: boolean) {
    reply.setCookie(
      nameOf(settings.secure),
      signCookieValue(`${operatorToken}:${dontRemember ? 'true' : ''}`, settings.secret),
      { path: '/', httpOnly: true, sameSite: 'lax', secure: settings.secure },
    )
  },
  /** The waiting operator; a token of null when the cookie is missing or its signature is wrong. */
  read(request: FastifyRequest, settings: SessionCookieSettings): WaitingOperator {
    const signed = request.cookies[nameOf(settings.secure)]
    const value = signed ? unsignCookieValue(signed, verifyingSecrets(settings) as readonly Secret[]) : null
    const [operatorToken = null, dontRemember = ''] = value?.split(':') ?? []
    return { operatorToken, dontRemember: dontRemember === 'true' }
  },
  clear(reply: FastifyReply, settings: SessionCookieSettings) {
    clearCookie(reply, nameOf(settings.secure), settings)
  },
}
