/// The answer to a sign-in by a first factor (password by email or username, and any other that
/// answers JSON), as better-auth gives it: the session cookie, `Location` and
/// `{redirect, token, url?, user}` when a callbackURL was given; or, when the person's second
/// factor is on and this device is not trusted, `{twoFactorRedirect: true, twoFactorMethods}`
/// with the two-factor cookie and no session (command-api/two-factor/gated-sign-in.ts).
/// A refusal is answered before the failed attempt is recorded (refuse-then-record.ts).

import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { UserSchema, userJson } from '../../http/presenters/presenters.js'
import type { CommandContext } from '../context.js'
import { refuseThenRecord } from '../shared/refuse-then-record.js'
import { type FirstFactorPassed, gateSignIn } from '../two-factor/gated-sign-in.js'

/** The answer of a first factor when the second step must come first: no session yet. */
export const TwoFactorRedirectSchema = Type.Object({
  twoFactorRedirect: Type.Literal(true),
  twoFactorMethods: Type.Array(Type.String()),
})

export const SignedInSchema = Type.Union([
  Type.Object({
    redirect: Type.Boolean(),
    token: Type.String(),
    url: Type.Optional(Type.String()),
    user: UserSchema,
  }),
  TwoFactorRedirectSchema,
])

export const answerSignIn = async (
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: CommandContext,
  callbackURL: string | undefined,
  signIn: () => Promise<FirstFactorPassed>,
) => {
  let passed: FirstFactorPassed
  try {
    passed = await signIn()
  } catch (error) {
    return refuseThenRecord(request, reply, error)
  }
  const outcome = await gateSignIn(ctx, request, reply, passed)
  if (outcome.kind === 'second-step')
    return { twoFactorRedirect: true as const, twoFactorMethods: outcome.methods }
  if (callbackURL) reply.header('location', callbackURL)
  return {
    redirect: Boolean(callbackURL),
    token: outcome.session.token,
    ...(callbackURL ? { url: callbackURL } : {}),
    user: userJson(passed.user),
  }
}
