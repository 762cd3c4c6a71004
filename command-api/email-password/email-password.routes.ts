/// POST /sign-up/email and POST /sign-in/email.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { UserSchema, userJson } from '../../http/presenters/presenters.js'
import { errorResponses, POST_ERRORS } from '../../infra/http/openapi.js'
import { firstLoginOriginHook } from '../../infra/http/origin-check.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import { signIn } from './sign-in.js'
import { signUp } from './sign-up.js'
import { answerSignIn, SignedInSchema } from './signed-in-answer.js'

const SignUpBody = Type.Object(
  {
    name: Type.String({ maxLength: 256 }),
    email: Type.String({ maxLength: 320 }),
    password: Type.String({ maxLength: 4096 }),
    image: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
    callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    rememberMe: Type.Optional(Type.Boolean()),
    // Generous bounds: the username rules (30 by default) answer with their own codes.
    username: Type.Optional(Type.String({ maxLength: 1024 })),
    displayUsername: Type.Optional(Type.String({ maxLength: 1024 })),
    // The OpenID provider's signed authorization request (oauth-provider/oauth-continue.hook.ts).
    oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
  },
  { additionalProperties: false },
)

const SignInBody = Type.Object(
  {
    email: Type.String({ maxLength: 320 }),
    password: Type.String({ maxLength: 4096 }),
    callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    rememberMe: Type.Optional(Type.Boolean()),
    // The OpenID provider's signed authorization request (oauth-provider/oauth-continue.hook.ts).
    oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
  },
  { additionalProperties: false },
)

export const emailPasswordRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/sign-up/email',
      {
        onRequest: firstLoginOriginHook(ctx.config),
        schema: {
          summary: 'Create an account with email and password',
          tags: ['Email and password'],
          body: SignUpBody,
          response: {
            ...errorResponses(
              ...POST_ERRORS,
              'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED',
              'INVALID_EMAIL',
              'PASSWORD_TOO_SHORT',
              'PASSWORD_TOO_LONG',
              'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL',
              'EMAIL_PASSWORD_SIGN_UP_DISABLED',
              'INVALID_CALLBACK_URL',
              'USERNAME_TOO_SHORT',
              'USERNAME_TOO_LONG',
              'INVALID_USERNAME',
              'USERNAME_IS_ALREADY_TAKEN',
            ),
            200: Type.Object({ token: Type.Union([Type.String(), Type.Null()]), user: UserSchema }),
          },
        },
      },
      async (request, reply) => {
        const { name, email, password, image, rememberMe, callbackURL, username, displayUsername } =
          request.body
        const result = await signUp(ctx, originOf(request), {
          name,
          email,
          password,
          image: image ?? null,
          rememberMe: rememberMe !== false,
          callbackURL: callbackURL ?? null,
          ...(username !== undefined ? { username } : {}),
          ...(displayUsername !== undefined ? { displayUsername } : {}),
        })
        if (result.session) setSessionCookie(reply, result.session, ctx.sessions.cookieSettings)
        return { token: result.session?.token ?? null, user: userJson(result.user) }
      },
    )

    app.post(
      '/sign-in/email',
      {
        onRequest: firstLoginOriginHook(ctx.config),
        schema: {
          summary: 'Sign in with email and password',
          tags: ['Email and password'],
          body: SignInBody,
          response: {
            ...errorResponses(
              ...POST_ERRORS,
              'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED',
              'INVALID_EMAIL',
              'INVALID_EMAIL_OR_PASSWORD',
              'EMAIL_NOT_VERIFIED',
              'EMAIL_PASSWORD_DISABLED',
              'INVALID_CALLBACK_URL',
            ),
            200: SignedInSchema,
          },
        },
      },
      async (request, reply) => {
        const { email, password, rememberMe, callbackURL } = request.body
        // A wrong password is answered first, then recorded.
        return answerSignIn(request, reply, ctx, callbackURL, () =>
          signIn(ctx, originOf(request), {
            email,
            password,
            rememberMe: rememberMe !== false,
            callbackURL: callbackURL ?? null,
          }),
        )
      },
    )
  }
