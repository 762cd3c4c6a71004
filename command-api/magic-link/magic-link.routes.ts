/// POST /sign-in/magic-link and GET /magic-link/verify, on better-auth's magicLink wire. The callback
/// URLs of both are checked against the trusted origins by the API's own hook (trusted-url.ts).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { isDomainError } from '../../domain/shared/errors.js'
import { SessionSchema, sessionJson, UserSchema } from '../../http/presenters/presenters.js'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import { ANY_ROUTE_ERRORS, errorResponses, POST_ERRORS } from '../../infra/http/openapi.js'
import { firstLoginOriginHook } from '../../infra/http/origin-check.js'
import { limitRecipient } from '../../infra/http/rate-limit.js'
import { withQuery } from '../../infra/http/redirect.js'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import { answerSignIn, TwoFactorRedirectSchema } from '../email-password/signed-in-answer.js'
import { secondStepUrl } from '../oauth-provider/continuation.js'
import { accountOfProvenAddress, provenFirstFactor } from '../passwordless/proven-address.js'
import { requestMagicLink, spendMagicLink } from './magic-link.js'

const SignInBody = Type.Object(
  {
    email: Type.String({ maxLength: 320 }),
    name: Type.Optional(Type.String({ maxLength: 256 })),
    callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    newUserCallbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    errorCallbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    // Handed to better-auth's sendMagicLink callback; Tessera's mail has no use for it.
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    // The OpenID provider's signed authorization request (oauth-provider/oauth-continue.hook.ts).
    oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
  },
  { additionalProperties: false },
)

const VerifyQuery = Type.Object({
  token: Type.String({ maxLength: 256 }),
  callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
  errorCallbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
  newUserCallbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
})

type VerifyQueryValue = { callbackURL?: string; errorCallbackURL?: string; newUserCallbackURL?: string }

/** A signed-in answer of `answerSignIn` (not a refusal it already sent, nor another step's answer). */
const isSignedIn = (answer: unknown): answer is { token: string; user: unknown } =>
  typeof answer === 'object' && answer !== null && 'token' in answer && 'user' in answer

export const magicLinkRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/sign-in/magic-link',
      {
        onRequest: firstLoginOriginHook(ctx.config),
        schema: {
          summary: 'Mail a sign-in link (same answer whether or not the address has an account)',
          tags: ['Magic link'],
          body: SignInBody,
          response: {
            ...errorResponses(
              ...POST_ERRORS,
              'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED',
              'INVALID_CALLBACK_URL',
              'INVALID_ERROR_CALLBACK_URL',
              'INVALID_NEW_USER_CALLBACK_URL',
            ),
            200: Type.Object({ status: Type.Boolean() }),
          },
        },
      },
      async (request, reply) => {
        const { email, name, callbackURL, newUserCallbackURL, errorCallbackURL } = request.body
        await limitRecipient(reply, email)
        const record = await requestMagicLink(ctx, originOf(request), {
          email,
          name: name ?? null,
          callbackURL: callbackURL ?? null,
          newUserCallbackURL: newUserCallbackURL ?? null,
          errorCallbackURL: errorCallbackURL ?? null,
        })
        await reply.send({ status: true })
        await record().catch((error: unknown) =>
          request.log.error({ err: error }, 'magic link request failed'),
        )
        return reply
      },
    )

    app.get(
      '/magic-link/verify',
      {
        schema: {
          summary: 'Follow a sign-in link: sign in (or up) and go to callbackURL, or answer the session',
          tags: ['Magic link'],
          querystring: VerifyQuery,
          response: {
            ...errorResponses(
              ...ANY_ROUTE_ERRORS,
              'INVALID_CALLBACK_URL',
              'INVALID_ERROR_CALLBACK_URL',
              'INVALID_NEW_USER_CALLBACK_URL',
              'BANNED_USER',
            ),
            200: Type.Union([
              Type.Object({ token: Type.String(), user: UserSchema, session: SessionSchema }),
              TwoFactorRedirectSchema,
            ]),
          },
        },
      },
      async (request, reply) => verify(ctx, request, reply, request.query.token, request.query),
    )
  }

const verify = async (
  ctx: CommandContext,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  query: VerifyQueryValue,
) => {
  const origin = originOf(request)
  // better-auth sends failures to errorCallbackURL, else callbackURL, else `/`, with `?error=`.
  const fail = (error: string) =>
    reply.redirect(withQuery(query.errorCallbackURL || query.callbackURL || '/', { error }))
  let link: Awaited<ReturnType<typeof spendMagicLink>>
  try {
    link = await spendMagicLink(ctx, origin, token)
  } catch (error) {
    if (isDomainError(error) && error.code === 'INVALID_TOKEN') return fail('INVALID_TOKEN')
    throw error
  }
  const profile = ctx.config.magicLink.disableSignUp ? null : { name: link.name, image: null }
  const account = await accountOfProvenAddress(ctx, origin, link.email, profile)
  if (!account) return fail('new_user_signup_disabled')
  const answer = await answerSignIn(request, reply, ctx, undefined, async () =>
    provenFirstFactor(account.user, 'magic-link'),
  )
  // The second step first (Tessera lets no mailed link skip it): a browser goes to its page.
  if (!isSignedIn(answer))
    return query.callbackURL && 'twoFactorRedirect' in answer
      ? reply.redirect(secondStepUrl(ctx, query.callbackURL))
      : answer
  if (query.callbackURL)
    return reply.redirect(account.isNew ? query.newUserCallbackURL || query.callbackURL : query.callbackURL)
  const found = await ctx.lookups.sessions.byTokenHash(sha256Hex(answer.token))
  if (!found) throw new Error('a session just started is not in the read model')
  return { token: answer.token, user: answer.user, session: sessionJson(found.session, answer.token) }
}
