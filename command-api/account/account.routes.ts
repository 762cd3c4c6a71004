/// POST /update-user, /change-password, /change-email, /delete-user and GET /delete-user/callback.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS, errorWithStatus } from '../../domain/errors.js'
import { StatusSchema, UserSchema, userJson } from '../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses, SIGNED_IN_POST_ERRORS } from '../../infra/http/openapi.js'
import { limitRecipient } from '../../infra/http/rate-limit.js'
import { acceptsHtml, withQuery } from '../../infra/http/redirect.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { clearSessionCookies, setSessionCookie } from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import { changeEmail } from './change-email.js'
import { changePassword } from './credentials.js'
import { deleteAccount, deleteWithToken, deletionLinkIsLive } from './delete-account.js'
import { updateUser } from './update-user.js'

const UpdateUserBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 256 })),
    image: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
    // Generous bounds: the username rules (30 by default) answer with their own codes.
    username: Type.Optional(Type.String({ maxLength: 1024 })),
    displayUsername: Type.Optional(Type.String({ maxLength: 1024 })),
    // Accepted by the schema only so that the answer can say why it is refused.
    email: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
)

const ChangePasswordBody = Type.Object(
  {
    newPassword: Type.String({ maxLength: 4096 }),
    currentPassword: Type.String({ maxLength: 4096 }),
    revokeOtherSessions: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

const DeleteUserBody = Type.Union([
  Type.Object(
    {
      password: Type.Optional(Type.String({ maxLength: 4096 })),
      token: Type.Optional(Type.String({ maxLength: 256 })),
      callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
  Type.Undefined(),
])

const DeletionResponse = Type.Object({ success: Type.Boolean(), message: Type.String() })

export const accountRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession, optionalSession } = sessionGuards(ctx)

    app.post(
      '/update-user',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Change your name, picture or username',
          tags: ['Account'],
          body: UpdateUserBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'EMAIL_CAN_NOT_BE_UPDATED',
              'NO_FIELDS_TO_UPDATE',
              'USERNAME_TOO_SHORT',
              'USERNAME_TOO_LONG',
              'INVALID_USERNAME',
              'USERNAME_IS_ALREADY_TAKEN',
            ),
            200: StatusSchema,
          },
        },
      },
      async (request) => {
        const { email, ...fields } = request.body
        if (email !== undefined) throw AUTH_ERRORS.error('EMAIL_CAN_NOT_BE_UPDATED')
        await updateUser(ctx, originOf(request), authOf(request), fields)
        return { status: true }
      },
    )

    app.post(
      '/change-password',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Change your password (optionally signing out your other devices)',
          tags: ['Account'],
          body: ChangePasswordBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'INVALID_PASSWORD',
              'PASSWORD_TOO_SHORT',
              'PASSWORD_TOO_LONG',
              'CREDENTIAL_ACCOUNT_NOT_FOUND',
            ),
            200: Type.Object({ token: Type.Union([Type.String(), Type.Null()]), user: UserSchema }),
          },
        },
      },
      async (request, reply) => {
        const auth = authOf(request)
        const { currentPassword, newPassword, revokeOtherSessions } = request.body
        const { session } = await changePassword(ctx, originOf(request), auth, {
          currentPassword,
          newPassword,
          revokeOtherSessions: revokeOtherSessions === true,
        })
        if (session) setSessionCookie(reply, session, ctx.sessions.cookieSettings)
        const user = (await ctx.lookups.users.byId(auth.user.id)) ?? auth.user
        return { token: session?.token ?? null, user: userJson(user) }
      },
    )

    app.post(
      '/change-email',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Change your email address',
          tags: ['Account'],
          body: Type.Object(
            {
              newEmail: Type.String({ maxLength: 320 }),
              callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
            },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'INVALID_EMAIL',
              'EMAIL_IS_THE_SAME',
              'CHANGE_EMAIL_DISABLED',
              'INVALID_CALLBACK_URL',
            ),
            200: StatusSchema,
          },
        },
      },
      async (request, reply) => {
        await limitRecipient(reply, request.body.newEmail)
        const record = await changeEmail(ctx, originOf(request), authOf(request), {
          newEmail: request.body.newEmail,
          callbackURL: request.body.callbackURL ?? null,
        })
        // Answer first: see changeEmail.
        await reply.send({ status: true })
        await record().catch((error: unknown) => request.log.error({ err: error }, 'email change failed'))
        return reply
      },
    )

    app.post(
      '/delete-user',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Delete your account (at once, or through a mailed link)',
          tags: ['Account'],
          body: DeleteUserBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'INVALID_PASSWORD',
              ['INVALID_TOKEN', 404],
              'SESSION_EXPIRED',
              'CREDENTIAL_ACCOUNT_NOT_FOUND',
              'NOT_FOUND',
              'INVALID_CALLBACK_URL',
            ),
            200: DeletionResponse,
          },
        },
      },
      async (request, reply) => {
        const body = request.body ?? {}
        // A password guess or a mailed link: counted per account too, whatever IPs the session uses.
        if (body.token === undefined) await limitRecipient(reply, authOf(request).user.email)
        const message = await deleteAccount(ctx, originOf(request), authOf(request), {
          password: body.password ?? null,
          token: body.token ?? null,
          callbackURL: body.callbackURL ?? null,
        })
        if (message === 'User deleted') clearSessionCookies(reply, ctx.sessions.cookieSettings)
        return { success: true, message }
      },
    )

    app.get(
      '/delete-user/callback',
      {
        schema: {
          summary:
            'Follow a deletion link (signed out in a browser: redirects to the portal to sign in and confirm)',
          tags: ['Account'],
          response: {
            200: DeletionResponse,
            ...errorResponses(
              ...ANY_ROUTE_ERRORS,
              ['FAILED_TO_GET_USER_INFO', 404],
              ['INVALID_TOKEN', 404],
              'NOT_FOUND',
              'INVALID_CALLBACK_URL',
            ),
          },
          querystring: Type.Object({
            token: Type.String({ maxLength: 256 }),
            callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
          }),
        },
      },
      async (request, reply) => {
        if (!ctx.config.user.deleteUser.enabled) throw AUTH_ERRORS.error('NOT_FOUND')
        const auth = await optionalSession(request)
        if (!auth) {
          // A mail app opens the link in a browser that is not signed in: rather than raw JSON,
          // the portal asks the person to sign in, then to confirm (it posts the token back).
          // An API client gets better-auth's answer: 404 FAILED_TO_GET_USER_INFO.
          if (!acceptsHtml(request)) throw errorWithStatus('FAILED_TO_GET_USER_INFO', 404)
          const { token, callbackURL } = request.query
          // A used or expired link (the account may be gone already) is said to be so at once.
          if (!(await deletionLinkIsLive(ctx, token)))
            return reply.redirect(withQuery('/confirm-deletion', { error: 'INVALID_TOKEN' }))
          return reply.redirect(
            withQuery('/confirm-deletion', { token, ...(callbackURL ? { callbackURL } : {}) }),
          )
        }
        await deleteWithToken(ctx, originOf(request), auth, request.query.token)
        clearSessionCookies(reply, ctx.sessions.cookieSettings)
        if (request.query.callbackURL) return reply.redirect(request.query.callbackURL)
        return reply.send({ success: true, message: 'User deleted' })
      },
    )
  }
