/// POST /sign-in/username and POST /is-username-available (better-auth's username plugin).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errorResponses, POST_ERRORS } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'
import { UserSchema, userJson } from '../../query-api/shared/presenters.js'
import type { CommandContext } from '../context.js'
import type { SignedIn } from '../email-password/sign-in.js'
import { refuseThenRecord } from '../shared/refuse-then-record.js'
import { signInUsername } from './sign-in-username.js'
import { isUsernameAvailable } from './username-availability.js'

const SignInUsernameBody = Type.Object(
  {
    // Generous bounds: the username rules (30 by default) answer with their own codes.
    username: Type.String({ maxLength: 1024 }),
    password: Type.String({ maxLength: 4096 }),
    rememberMe: Type.Optional(Type.Boolean()),
    callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
)

// Broken rules answer 422 here, not the catalogue's 400 (see domain/user/username.ts).
const USERNAME_RULES_422 = [
  ['USERNAME_TOO_SHORT', 422],
  ['USERNAME_TOO_LONG', 422],
  ['INVALID_USERNAME', 422],
] as const

export const usernameRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/sign-in/username',
      {
        schema: {
          summary: 'Sign in with username and password',
          tags: ['Username'],
          body: SignInUsernameBody,
          response: {
            ...errorResponses(
              ...POST_ERRORS,
              'INVALID_USERNAME_OR_PASSWORD',
              'EMAIL_NOT_VERIFIED',
              'INVALID_CALLBACK_URL',
              ...USERNAME_RULES_422,
            ),
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
        const { username, password, rememberMe, callbackURL } = request.body
        let result: SignedIn
        try {
          result = await signInUsername(ctx, originOf(request), {
            username,
            password,
            rememberMe: rememberMe !== false,
            callbackURL: callbackURL ?? null,
          })
        } catch (error) {
          // A wrong password is answered first, then recorded.
          return refuseThenRecord(request, reply, error)
        }
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

    app.post(
      '/is-username-available',
      {
        schema: {
          summary: 'Whether a username is still free',
          tags: ['Username'],
          body: Type.Object({ username: Type.String({ maxLength: 1024 }) }, { additionalProperties: false }),
          response: {
            ...errorResponses(...POST_ERRORS, ...USERNAME_RULES_422),
            200: Type.Object({ available: Type.Boolean() }),
          },
        },
      },
      async (request) => ({ available: await isUsernameAvailable(ctx, request.body.username) }),
    )
  }
