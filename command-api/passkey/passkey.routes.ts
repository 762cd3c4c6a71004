/// Passkeys on better-auth's passkey plugin's wire: GET /passkey/generate-register-options and POST
/// /passkey/verify-registration (a fresh session adds a passkey), GET
/// /passkey/generate-authenticate-options and POST /passkey/verify-authentication (signs in), POST
/// /passkey/update-passkey (rename) and /passkey/delete-passkey. The options GETs write a challenge,
/// so they live here with the commands. The list is a query (the query side's passkey/).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AUTH_ERRORS, invalidBodyField } from '../../domain/errors.js'
import { PasskeySchema, passkeyJson } from '../../http/presenters/passkey-json.js'
import {
  SessionSchema,
  StatusSchema,
  sessionJson,
  UserSchema,
  userJson,
} from '../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import {
  ANY_ROUTE_ERRORS,
  errorResponses,
  POST_ERRORS,
  SIGNED_IN_POST_ERRORS,
} from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import type { StartedSession } from '../sessions/start-session.js'
import { startSession } from '../sessions/start-session.js'
import { authenticationOptions, signInWithPasskey } from './authenticate-passkey.js'
import { deletePasskey, renamePasskey } from './manage-passkeys.js'
import { type ChallengeCookie, challengeCookieName } from './passkey-challenge.js'
import { registrationOptions, verifyRegistration } from './register-passkey.js'

/** What the browser hands to `navigator.credentials`, as @simplewebauthn/server makes it. */
const OptionsSchema = Type.Object(
  { challenge: Type.String(), timeout: Type.Optional(Type.Number()) },
  { additionalProperties: true },
)
/** The browser's answer (a `PublicKeyCredential` as JSON); the WebAuthn library checks its shape. */
const CredentialResponse = Type.Record(Type.String({ maxLength: 64 }), Type.Unknown())
const PasskeyId = Type.String({ minLength: 1, maxLength: 256 })

const RegisterQuery = Type.Object(
  {
    authenticatorAttachment: Type.Optional(
      Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')]),
    ),
    name: Type.Optional(Type.String({ maxLength: 256 })),
    context: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
)

const SignedInSchema = Type.Object({ session: SessionSchema, user: UserSchema })

export const passkeyRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession, optionalSession } = sessionGuards(ctx)
    const settings = ctx.sessions.cookieSettings
    const cookieName = challengeCookieName(ctx.config.secureCookies)

    // better-auth's freshSessionMiddleware: adding a passkey needs a recent sign-in.
    const requireFreshSession = async (request: FastifyRequest, reply: FastifyReply) => {
      await requireSession(request, reply)
      const { freshAge } = ctx.config.session
      const age = ctx.clock().getTime() - new Date(authOf(request).session.created_at).getTime()
      if (freshAge !== 0 && age >= freshAge * 1000) throw AUTH_ERRORS.error('SESSION_NOT_FRESH')
    }
    const setChallengeCookie = (reply: FastifyReply, cookie: ChallengeCookie) =>
      reply.setCookie(cookie.name, cookie.value, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: settings.secure,
        maxAge: cookie.maxAge,
      })
    // The record is gone once verification took it; the cookie goes with it.
    const clearChallengeCookie = (reply: FastifyReply) =>
      reply.setCookie(cookieName, '', {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: settings.secure,
        maxAge: 0,
      })
    /** The `{session, user}` of a session just started, as better-auth answers a passkey sign-in. */
    const signedIn = async (reply: FastifyReply, started: StartedSession) => {
      const lookup = await ctx.sessions.lookup(started.token, ctx.clock())
      if (lookup.status !== 'valid') throw AUTH_ERRORS.error('UNABLE_TO_CREATE_SESSION')
      setSessionCookie(reply, started, settings)
      return { session: sessionJson(lookup.found.session, started.token), user: userJson(lookup.found.user) }
    }

    app.get(
      '/passkey/generate-register-options',
      {
        preHandler: requireFreshSession,
        schema: {
          summary: 'Options for adding a passkey (navigator.credentials.create); needs a fresh session',
          tags: ['Passkeys'],
          querystring: RegisterQuery,
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED', 'SESSION_NOT_FRESH'),
            200: OptionsSchema,
          },
        },
      },
      async (request, reply) => {
        const { user } = authOf(request)
        const { options, cookie } = await registrationOptions(ctx, {
          userId: user.id,
          userName: user.email || user.id,
          ...(request.query.authenticatorAttachment
            ? { authenticatorAttachment: request.query.authenticatorAttachment }
            : {}),
          ...(request.query.name ? { name: request.query.name } : {}),
        })
        setChallengeCookie(reply, cookie)
        return options
      },
    )

    app.post(
      '/passkey/verify-registration',
      {
        preHandler: requireFreshSession,
        schema: {
          summary: 'Add the passkey the authenticator made; optionally start a session (`createSession`)',
          tags: ['Passkeys'],
          body: Type.Object(
            {
              response: CredentialResponse,
              name: Type.Optional(Type.String({ maxLength: 256 })),
              createSession: Type.Optional(Type.Boolean()),
            },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'SESSION_NOT_FRESH',
              'CHALLENGE_NOT_FOUND',
              'FAILED_TO_VERIFY_REGISTRATION',
              'PREVIOUSLY_REGISTERED',
              'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY',
            ),
            200: Type.Object({
              ...PasskeySchema.properties,
              session: Type.Optional(SessionSchema),
              user: Type.Optional(UserSchema),
            }),
          },
        },
      },
      async (request, reply) => {
        const { user } = authOf(request)
        const origin = originOf(request)
        clearChallengeCookie(reply)
        const row = await verifyRegistration(ctx, origin, {
          userId: user.id,
          challengeCookie: request.cookies[cookieName],
          response: request.body.response,
          name: request.body.name?.trim() || null,
        })
        if (!request.body.createSession) return passkeyJson(row)
        const started = await startSession(ctx, origin, { userId: user.id, rememberMe: true })
        return { ...passkeyJson(row), ...(await signedIn(reply, started)) }
      },
    )

    app.get(
      '/passkey/generate-authenticate-options',
      {
        schema: {
          summary: 'Options for signing in with a passkey (navigator.credentials.get)',
          tags: ['Passkeys'],
          response: { ...errorResponses(...ANY_ROUTE_ERRORS), 200: OptionsSchema },
        },
      },
      async (request, reply) => {
        const found = await optionalSession(request)
        const { options, cookie } = await authenticationOptions(ctx, found?.user.id ?? null)
        setChallengeCookie(reply, cookie)
        return options
      },
    )

    app.post(
      '/passkey/verify-authentication',
      {
        schema: {
          summary: 'Sign in with a passkey; no second step follows',
          tags: ['Passkeys'],
          body: Type.Object(
            {
              response: CredentialResponse,
              // The OpenID provider's signed authorization request (oauth-provider/oauth-continue.hook.ts).
              oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
            },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(
              ...POST_ERRORS,
              'CHALLENGE_NOT_FOUND',
              ['PASSKEY_NOT_FOUND', 401],
              'AUTHENTICATION_FAILED',
              ['AUTHENTICATION_FAILED', 401],
              'BANNED_USER',
            ),
            200: SignedInSchema,
          },
        },
      },
      async (request, reply) => {
        clearChallengeCookie(reply)
        const { session } = await signInWithPasskey(ctx, originOf(request), {
          challengeCookie: request.cookies[cookieName],
          response: request.body.response,
        })
        return signedIn(reply, session)
      },
    )

    app.post(
      '/passkey/update-passkey',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Rename one of your passkeys',
          tags: ['Passkeys'],
          body: Type.Object(
            { id: PasskeyId, name: Type.String({ maxLength: 256 }) },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'PASSKEY_NOT_FOUND',
              'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY',
            ),
            200: Type.Object({ passkey: PasskeySchema }),
          },
        },
      },
      async (request) => {
        const name = request.body.name.trim()
        if (name === '') throw invalidBodyField('name', 'must not be empty')
        const row = await renamePasskey(ctx, originOf(request), {
          userId: authOf(request).user.id,
          passkeyId: request.body.id,
          name,
        })
        return { passkey: passkeyJson(row) }
      },
    )

    app.post(
      '/passkey/delete-passkey',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Remove one of your passkeys',
          tags: ['Passkeys'],
          body: Type.Object({ id: PasskeyId }, { additionalProperties: false }),
          response: { ...errorResponses(...SIGNED_IN_POST_ERRORS, 'PASSKEY_NOT_FOUND'), 200: StatusSchema },
        },
      },
      async (request) => {
        await deletePasskey(ctx, originOf(request), {
          userId: authOf(request).user.id,
          passkeyId: request.body.id,
        })
        return { status: true }
      },
    )
  }
