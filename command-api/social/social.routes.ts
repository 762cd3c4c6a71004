/// Social sign-in and linked accounts, on better-auth's paths and shapes: POST /sign-in/social,
/// GET and POST /callback/:id, POST /link-social, POST /unlink-account, POST /get-access-token,
/// POST /refresh-token, and account-info (GET ?accountId=, as better-auth; POST {accountId}, as the
/// spec). get-access-token and refresh-token also serve a backend holding a server key, which
/// names the user with `userId`.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import type { Actor } from '../../domain/shared/metadata.js'
import type { ServerApiPort } from '../../http/context.js'
import { serverActor } from '../../http/guards/server-key.js'
import { StatusSchema, UserSchema, userJson } from '../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import {
  ANY_ROUTE_ERRORS,
  errorResponses,
  POST_ERRORS,
  SIGNED_IN_POST_ERRORS,
} from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import { TwoFactorRedirectSchema } from '../email-password/signed-in-answer.js'
import { type FirstFactorPassed, gateSignIn } from '../two-factor/gated-sign-in.js'
import { accountInfo, getAccessToken, refreshAccessToken } from './linked-account-tokens.js'
import { stateCookieName } from './oauth-state.js'
import { finishSocialFlow, linkWithIdToken, signInWithIdToken, startSocialFlow } from './social-flow.js'
import type { SocialSignInResult } from './social-sign-in.js'
import { unlinkAccount } from './unlink-account.js'

const IdTokenSchema = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 16_384 }),
    nonce: Type.Optional(Type.String({ maxLength: 512 })),
    accessToken: Type.Optional(Type.String({ maxLength: 16_384 })),
    refreshToken: Type.Optional(Type.String({ maxLength: 16_384 })),
    expiresAt: Type.Optional(Type.Number()),
  },
  { additionalProperties: false },
)

const Url = Type.String({ maxLength: 2048 })
const ProviderId = Type.String({ minLength: 1, maxLength: 64 })
const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 50 })

const SignInSocialBody = Type.Object(
  {
    provider: ProviderId,
    callbackURL: Type.Optional(Url),
    newUserCallbackURL: Type.Optional(Url),
    errorCallbackURL: Type.Optional(Url),
    disableRedirect: Type.Optional(Type.Boolean()),
    idToken: Type.Optional(IdTokenSchema),
    scopes: Type.Optional(Scopes),
    requestSignUp: Type.Optional(Type.Boolean()),
    loginHint: Type.Optional(Type.String({ maxLength: 512 })),
    // The OpenID provider's signed authorization request (oauth-provider/oauth-continue.hook.ts).
    oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
  },
  { additionalProperties: false },
)

const LinkSocialBody = Type.Object(
  {
    provider: ProviderId,
    callbackURL: Type.Optional(Url),
    errorCallbackURL: Type.Optional(Url),
    disableRedirect: Type.Optional(Type.Boolean()),
    idToken: Type.Optional(IdTokenSchema),
    scopes: Type.Optional(Scopes),
    requestSignUp: Type.Optional(Type.Boolean()),
    loginHint: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
)

const AccountSelection = Type.Object(
  {
    accountId: Type.String({ minLength: 1, maxLength: 256 }),
    /** The spec's form names the provider too; the account id alone decides. */
    providerId: Type.Optional(ProviderId),
    userId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
)

const RedirectSchema = Type.Object({ url: Type.String(), redirect: Type.Boolean() })
const SignedInSchema = Type.Object({
  redirect: Type.Boolean(),
  token: Type.String(),
  url: Type.Optional(Type.String()),
  user: UserSchema,
})
const LinkedSchema = Type.Object({ url: Type.String(), redirect: Type.Boolean(), status: Type.Boolean() })

const AccessTokenSchema = Type.Object({
  accessToken: Type.Optional(Type.String()),
  accessTokenExpiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  scopes: Type.Array(Type.String()),
  idToken: Type.Optional(Type.String()),
})
const RefreshedSchema = Type.Object({
  accessToken: Type.Optional(Type.String()),
  refreshToken: Type.Optional(Type.String()),
  accessTokenExpiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  // null when the provider never said (better-auth answers the stored value, null).
  refreshTokenExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  scope: Type.Optional(Type.String()),
  idToken: Type.Optional(Type.String()),
  providerId: Type.String(),
  accountId: Type.String(),
})
const AccountInfoSchema = Type.Object({
  user: Type.Object({
    id: Type.String(),
    name: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    image: Type.Optional(Type.String()),
    emailVerified: Type.Boolean(),
  }),
  data: Type.Record(Type.String(), Type.Unknown()),
  account: Type.Object({ id: Type.String(), providerId: Type.String(), accountId: Type.String() }),
})

const TOKEN_ERRORS = [
  ...ANY_ROUTE_ERRORS,
  'UNAUTHORIZED',
  'ACCOUNT_NOT_FOUND',
  'PROVIDER_NOT_SUPPORTED',
  'USER_ID_OR_SESSION_REQUIRED',
  'INVALID_SERVER_KEY',
  'SERVER_KEY_FROM_BROWSER',
] as const

/** A provider vouched for the person: their first factor, which the second-step gate follows. */
const socialFirstFactor = ({ user }: SocialSignInResult): FirstFactorPassed => ({
  user,
  rememberMe: true,
  factor: 'social',
})

export const socialRoutes =
  (ctx: CommandContext & ServerApiPort): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession, optionalSession } = sessionGuards(ctx)
    const settings = ctx.sessions.cookieSettings
    const stateCookie = stateCookieName(settings.secure)

    // A provider that answers with response_mode=form_post (Apple) posts the form here.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 65_536 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    )

    const setStateCookie = (reply: FastifyReply, cookie: { name: string; value: string }) =>
      reply.setCookie(cookie.name, cookie.value, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: settings.secure,
        // better-auth's: five minutes, though the flow's record lives ten.
        maxAge: 300,
      })

    app.post(
      '/sign-in/social',
      {
        schema: {
          summary: 'Start a sign-in with a social provider, or sign in with its id token',
          tags: ['Social sign-in'],
          body: SignInSocialBody,
          response: {
            ...errorResponses(
              ...POST_ERRORS,
              'PROVIDER_NOT_FOUND',
              'CALLBACK_URL_REQUIRED',
              'INVALID_CALLBACK_URL',
              'INVALID_ERROR_CALLBACK_URL',
              'INVALID_NEW_USER_CALLBACK_URL',
              'ID_TOKEN_NOT_SUPPORTED',
              'FAILED_TO_GET_USER_INFO',
              'USER_EMAIL_NOT_FOUND',
            ),
            // Most specific first: fast-json-stringify writes the first branch an answer fits, and a
            // signed-in answer with a `url` fits the redirect too (it would lose its token and user).
            200: Type.Union([SignedInSchema, TwoFactorRedirectSchema, RedirectSchema]),
          },
        },
      },
      async (request, reply) => {
        const { body } = request
        if (body.idToken) {
          const result = await signInWithIdToken(ctx, originOf(request), body.provider, body.idToken, {
            requestSignUp: body.requestSignUp === true,
            callbackURL: body.callbackURL ?? null,
          })
          const outcome = await gateSignIn(ctx, request, reply, socialFirstFactor(result))
          if (outcome.kind === 'second-step')
            return { twoFactorRedirect: true as const, twoFactorMethods: outcome.methods }
          return {
            redirect: false,
            token: outcome.session.token,
            ...(body.callbackURL ? { url: body.callbackURL } : {}),
            user: userJson(result.user),
          }
        }
        const started = await startSocialFlow(ctx, body, null)
        setStateCookie(reply, started.cookie)
        if (!body.disableRedirect) reply.header('location', started.url)
        return { url: started.url, redirect: !body.disableRedirect }
      },
    )

    const callback = async (
      request: FastifyRequest<{ Params: { id: string } }>,
      reply: FastifyReply,
      params: Record<string, string>,
    ) => {
      const outcome = await finishSocialFlow(ctx, originOf(request), {
        providerId: request.params.id,
        params,
        stateCookie: request.cookies[stateCookie],
      })
      reply.clearCookie(stateCookie, { path: '/', secure: settings.secure, sameSite: 'lax', httpOnly: true })
      if (!outcome.signedIn) return reply.redirect(outcome.location, 302)
      const gated = await gateSignIn(ctx, request, reply, socialFirstFactor(outcome.signedIn))
      // The second step first, as after a password: the browser goes to its page, with no session.
      if (gated.kind === 'second-step')
        return reply.redirect(new URL('/two-factor', ctx.config.baseUrl).toString(), 302)
      return reply.redirect(outcome.location, 302)
    }

    const CallbackParams = Type.Object({ id: ProviderId })
    const callbackSchema = {
      summary: "Finish a social sign-in or link: the provider's redirect back",
      tags: ['Social sign-in'],
      params: CallbackParams,
      response: { ...errorResponses(...ANY_ROUTE_ERRORS), 302: Type.Null({ description: 'Redirect' }) },
    }
    app.get(
      '/callback/:id',
      { schema: { ...callbackSchema, querystring: Type.Record(Type.String(), Type.String()) } },
      async (request, reply) => callback(request, reply, request.query),
    )
    app.post(
      '/callback/:id',
      {
        schema: {
          ...callbackSchema,
          summary: 'Finish a social sign-in (form_post): continues as a GET',
          body: Type.Optional(Type.Record(Type.String(), Type.String())),
        },
      },
      // The form arrives cross-site, without the state cookie (SameSite=Lax): answer with the same
      // parameters as a GET, which the browser sends with its cookies.
      async (request, reply) => {
        const query = new URLSearchParams({ ...(request.query as object), ...(request.body ?? {}) })
        return reply.redirect(
          `${ctx.config.basePath}/callback/${encodeURIComponent(request.params.id)}?${query}`,
          302,
        )
      },
    )

    app.post(
      '/link-social',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Link another social account to the signed-in user',
          tags: ['Social sign-in'],
          body: LinkSocialBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'PROVIDER_NOT_FOUND',
              'INVALID_CALLBACK_URL',
              'INVALID_ERROR_CALLBACK_URL',
              'ID_TOKEN_NOT_SUPPORTED',
              'SOCIAL_ACCOUNT_ALREADY_LINKED',
              'LINKING_NOT_ALLOWED',
              'LINKING_DIFFERENT_EMAILS_NOT_ALLOWED',
              'LINKING_FAILED',
            ),
            200: Type.Union([LinkedSchema, RedirectSchema]),
          },
        },
      },
      async (request, reply) => {
        const { user } = authOf(request)
        const link = { userId: user.id, email: user.email }
        const { body } = request
        if (body.idToken) {
          await linkWithIdToken(ctx, originOf(request), link, body.provider, body.idToken)
          return { url: '', status: true, redirect: false }
        }
        const started = await startSocialFlow(ctx, body, link)
        setStateCookie(reply, started.cookie)
        if (!body.disableRedirect) reply.header('location', started.url)
        return { url: started.url, redirect: !body.disableRedirect }
      },
    )

    app.post(
      '/unlink-account',
      {
        preHandler: requireSession,
        schema: {
          summary:
            'Unlink an account, a social one or the password ("credential"), not the last one; needs a fresh session',
          tags: ['Social sign-in'],
          body: Type.Object(
            {
              accountId: Type.String({ minLength: 1, maxLength: 256 }),
              providerId: Type.Optional(ProviderId),
            },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'SESSION_NOT_FRESH',
              'FAILED_TO_UNLINK_LAST_ACCOUNT',
              'ACCOUNT_NOT_FOUND',
            ),
            200: StatusSchema,
          },
        },
      },
      async (request) => {
        const { session, user } = authOf(request)
        const freshAge = ctx.config.session.freshAge
        const age = ctx.clock().getTime() - new Date(session.created_at).getTime()
        if (freshAge !== 0 && age >= freshAge * 1000) throw AUTH_ERRORS.error('SESSION_NOT_FRESH')
        await unlinkAccount(ctx, originOf(request), user.id, request.body)
        return { status: true }
      },
    )

    /** The session's user, or the `userId` a backend with a server key names. */
    const callerOf = async (
      request: FastifyRequest,
      reply: FastifyReply,
      userId: string | undefined,
    ): Promise<{ userId: string; actor: Actor }> => {
      const server = await ctx.serverApi.optionalServerKey(request, reply)
      if (server) {
        if (!userId) throw AUTH_ERRORS.error('USER_ID_OR_SESSION_REQUIRED')
        return { userId, actor: serverActor(server) }
      }
      const found = await optionalSession(request)
      // A browser or client over HTTP needs a session; a userId alone is a server-side call.
      if (!found) throw AUTH_ERRORS.error('UNAUTHORIZED')
      return { userId: found.user.id, actor: { type: 'user', userId: found.user.id } }
    }

    const iso = (date: Date | undefined) => date?.toISOString()

    app.post(
      '/get-access-token',
      {
        schema: {
          summary: "A linked account's access token, refreshed at the provider when it expires",
          tags: ['Social sign-in'],
          body: AccountSelection,
          response: {
            ...errorResponses(...TOKEN_ERRORS, 'FAILED_TO_GET_ACCESS_TOKEN'),
            200: AccessTokenSchema,
          },
        },
      },
      async (request, reply) => {
        const caller = await callerOf(request, reply, request.body.userId)
        const { accountId, providerId } = request.body
        const answer = await getAccessToken(ctx, originOf(request), { ...caller, accountId, providerId })
        return { ...answer, accessTokenExpiresAt: iso(answer.accessTokenExpiresAt) }
      },
    )

    app.post(
      '/refresh-token',
      {
        schema: {
          summary: "Refresh a linked account's tokens at the provider",
          tags: ['Social sign-in'],
          body: AccountSelection,
          response: {
            ...errorResponses(...TOKEN_ERRORS, 'REFRESH_TOKEN_NOT_FOUND', 'FAILED_TO_REFRESH_ACCESS_TOKEN'),
            200: RefreshedSchema,
          },
        },
      },
      async (request, reply) => {
        const caller = await callerOf(request, reply, request.body.userId)
        const { accountId, providerId } = request.body
        const answer = await refreshAccessToken(ctx, originOf(request), { ...caller, accountId, providerId })
        return {
          ...answer,
          accessTokenExpiresAt: iso(answer.accessTokenExpiresAt),
          refreshTokenExpiresAt: iso(answer.refreshTokenExpiresAt) ?? null,
        }
      },
    )

    const infoErrors = errorResponses(
      ...TOKEN_ERRORS,
      'FAILED_TO_GET_ACCESS_TOKEN',
      'ACCESS_TOKEN_NOT_FOUND',
      'FAILED_TO_GET_USER_INFO',
    )
    const info = async (
      request: FastifyRequest,
      reply: FastifyReply,
      selection: { accountId: string; providerId?: string | undefined; userId?: string | undefined },
    ) => {
      const caller = await callerOf(request, reply, selection.userId)
      const { accountId, providerId } = selection
      return accountInfo(ctx, originOf(request), { ...caller, accountId, providerId })
    }
    app.get(
      '/account-info',
      {
        schema: {
          summary: "The provider's current information about a linked account",
          tags: ['Social sign-in'],
          querystring: AccountSelection,
          response: { ...infoErrors, 200: AccountInfoSchema },
        },
      },
      async (request, reply) => info(request, reply, request.query),
    )
    app.post(
      '/account-info',
      {
        schema: {
          summary: "The provider's current information about a linked account (the spec's form)",
          tags: ['Social sign-in'],
          body: AccountSelection,
          response: { ...infoErrors, 200: AccountInfoSchema },
        },
      },
      async (request, reply) => info(request, reply, request.body),
    )
  }
