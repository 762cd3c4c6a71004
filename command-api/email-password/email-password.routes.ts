/// POST /sign-up/email and POST /sign-in/email.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { originOf } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'
import { UserSchema, userJson } from '../../query-api/shared/presenters.js'
import type { CommandContext } from '../context.js'
import { signIn } from './sign-in.js'
import { signUp } from './sign-up.js'

const SignUpBody = Type.Object(
  {
    name: Type.String({ maxLength: 256 }),
    email: Type.String({ maxLength: 320 }),
    password: Type.String({ maxLength: 4096 }),
    image: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
    callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    rememberMe: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

const SignInBody = Type.Object(
  {
    email: Type.String({ maxLength: 320 }),
    password: Type.String({ maxLength: 4096 }),
    callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    rememberMe: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

export const emailPasswordRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/sign-up/email',
      {
        schema: {
          body: SignUpBody,
          response: {
            200: Type.Object({ token: Type.Union([Type.String(), Type.Null()]), user: UserSchema }),
          },
        },
      },
      async (request, reply) => {
        const { name, email, password, image, rememberMe, callbackURL } = request.body
        const result = await signUp(ctx, originOf(request), {
          name,
          email,
          password,
          image: image ?? null,
          rememberMe: rememberMe !== false,
          callbackURL: callbackURL ?? null,
        })
        if (result.session) setSessionCookie(reply, result.session, ctx.sessions.cookieSettings)
        return { token: result.session?.token ?? null, user: userJson(result.user) }
      },
    )

    app.post(
      '/sign-in/email',
      {
        schema: {
          body: SignInBody,
          response: {
            200: Type.Object({
              redirect: Type.Boolean(),
              token: Type.String(),
              url: Type.Optional(Type.String()),
              user: UserSchema,
            }),
          },
        },
      },
      async (request, reply) => {
        const { email, password, rememberMe, callbackURL } = request.body
        const result = await signIn(ctx, originOf(request), {
          email,
          password,
          rememberMe: rememberMe !== false,
          callbackURL: callbackURL ?? null,
        })
        setSessionCookie(reply, result.session, ctx.sessions.cookieSettings)
        if (callbackURL) reply.header('location', callbackURL)
        return {
          redirect: Boolean(callbackURL),
          token: result.session.token,
          ...(callbackURL ? { url: callbackURL } : {}),
          user: userJson(result.user),
        }
      },
    )
  }
