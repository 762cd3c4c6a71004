/// POST /sign-in/username and POST /is-username-available (better-auth's username plugin).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errorResponses, POST_ERRORS } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import { answerSignIn, SignedInSchema } from '../email-password/signed-in-answer.js'
import { signInUsername } from './sign-in-username.js'
import { isUsernameAvailable } from './username-availability.js'

const SignInUsernameBody = Type.Object(
  {
    // Generous bounds: the username rules (30 by default) answer with their own codes.
    username: Type.String({ maxLength: 1024 }),
    password: Type.String({ maxLength: 4096 }),
    rememberMe: Type.Optional(Type.Boolean()),
    callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    // The OpenID provider's signed authorization request (oauth-provider/oauth-continue.hook.ts).
    oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
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
            200: SignedInSchema,
          },
        },
      },
      async (request, reply) => {
        const { username, password, rememberMe, callbackURL } = request.body
        // A wrong password is answered first, then recorded.
        return answerSignIn(request, reply, ctx, callbackURL, () =>
          signInUsername(ctx, originOf(request), {
            username,
            password,
            rememberMe: rememberMe !== false,
            callbackURL: callbackURL ?? null,
          }),
        )
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
