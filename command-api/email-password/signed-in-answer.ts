/// The answer to a password sign-in (by email or by username), as better-auth gives it: the
/// session cookie, `Location` and `{redirect, token, url?, user}` when a callbackURL was given.
/// A refusal is answered before the failed attempt is recorded (refuse-then-record.ts).

import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { type SessionCookieSettings, setSessionCookie } from '../../infra/http/session-cookie.js'
import { UserSchema, userJson } from '../../query-api/shared/presenters.js'
import { refuseThenRecord } from '../shared/refuse-then-record.js'
import type { SignedIn } from './sign-in.js'

export const SignedInSchema = Type.Object({
  redirect: Type.Boolean(),
  token: Type.String(),
  url: Type.Optional(Type.String()),
  user: UserSchema,
})

export const answerSignIn = async (
  request: FastifyRequest,
  reply: FastifyReply,
  cookieSettings: SessionCookieSettings,
  callbackURL: string | undefined,
  signIn: () => Promise<SignedIn>,
) => {
  let result: SignedIn
  try {
    result = await signIn()
  } catch (error) {
    return refuseThenRecord(request, reply, error)
  }
  setSessionCookie(reply, result.session, cookieSettings)
  if (callbackURL) reply.header('location', callbackURL)
  return {
    redirect: Boolean(callbackURL),
    token: result.session.token,
    ...(callbackURL ? { url: callbackURL } : {}),
    user: userJson(result.user),
  }
}
