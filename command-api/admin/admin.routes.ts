/// The admin plugin's POST routes (better-auth 1.7.5's paths, bodies, answers and codes): users
/// (create, update, set-role, ban, unban, remove, set-user-password), their sessions (list, revoke
/// one or all), impersonation (impersonate-user, stop-impersonating) and has-permission. Access:
/// http/guards/admin-caller.ts. Every change is an event with the operator as actor.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { hasAdminPermission, type PermissionRequest, userMay } from '../../domain/admin/permissions.js'
import { AUTH_ERRORS, type AuthErrorCode } from '../../domain/errors.js'
import { DomainError } from '../../domain/shared/errors.js'
import { adminGuard, callerMay, type ServerKeyCheck } from '../../http/guards/admin-caller.js'
import {
  SessionSchema,
  StatusSchema,
  sessionJson,
  UserSchema,
  userJson,
} from '../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import type { Secret } from '../../infra/crypto/hmac.js'
import { signCookieValue, unsignCookieValue } from '../../infra/crypto/signed-cookie.js'
import { FREE_FORM } from '../../infra/http/free-form-json.js'
import { errorResponses, POST_ERRORS } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import {
  clearCookie,
  clearSessionCookies,
  cookieNames,
  hasDontRememberCookie,
  setSessionCookie,
  verifyingSecrets,
} from '../../infra/http/session-cookie.js'
import { findSessionById, listSessionsOfUser } from '../../projections/sessions/sessions.repository.js'
import { findUserById } from '../../projections/users/users.repository.js'
import type { CommandContext } from '../context.js'
import { impersonateUser, stopImpersonating } from './impersonation.js'
import { revokeUserSessionByAdmin, revokeUserSessionsByAdmin } from './manage-sessions.js'
import {
  banUserByAdmin,
  checkedRoles,
  createUserByAdmin,
  removeUserByAdmin,
  setRoleByAdmin,
  setUserPasswordByAdmin,
  unbanUserByAdmin,
  updateUserByAdmin,
} from './manage-users.js'
import { adminCreateDataOf, adminUpdateOf } from './user-data.js'

const UserId = Type.String({ minLength: 1, maxLength: 256 })
const RoleValue = Type.Union([
  Type.String({ maxLength: 256 }),
  Type.Array(Type.String({ maxLength: 256 }), { maxItems: 20 }),
])
const body = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false })
const UserAnswer = Type.Object({ user: UserSchema })
const SuccessSchema = Type.Object({ success: Type.Boolean() })
const Permissions = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: 32 }),
)

const ADMIN_ERRORS = [...POST_ERRORS, 'UNAUTHORIZED'] as const

/** better-auth's `admin_session` cookie: the operator's own session while they impersonate. */
const adminCookieName = (secure: boolean) =>
  cookieNames(secure).sessionToken.replace('session_token', 'admin_session')

export const adminRoutes =
  (ctx: CommandContext & { serverApi?: ServerKeyCheck }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const guard = adminGuard(ctx)
    const { requireSession } = sessionGuards(ctx)
    const settings = ctx.sessions.cookieSettings
    const authorize = (
      request: FastifyRequest,
      reply: FastifyReply,
      permission: PermissionRequest,
      refusal: AuthErrorCode,
    ) => guard.authorize(request, reply, permission, refusal)

    app.post(
      '/admin/create-user',
      {
        schema: {
          summary: 'Create a user',
          tags: ['Admin'],
          body: body({
            email: Type.String({ maxLength: 320 }),
            password: Type.Optional(Type.String({ maxLength: 4096 })),
            name: Type.String({ maxLength: 256 }),
            role: Type.Optional(RoleValue),
            data: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), FREE_FORM)),
          }),
          response: {
            ...errorResponses(
              ...ADMIN_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS',
              'YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE',
              'INVALID_ROLE_TYPE',
              'YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE',
              'INVALID_EMAIL',
              'PASSWORD_TOO_SHORT',
              'PASSWORD_TOO_LONG',
              'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS',
              'USERNAME_TOO_SHORT',
              'USERNAME_TOO_LONG',
              'INVALID_USERNAME',
              'USERNAME_IS_ALREADY_TAKEN',
              ['USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', 400],
            ),
            200: UserAnswer,
          },
        },
      },
      async (request, reply) => {
        const caller = await authorize(
          request,
          reply,
          { user: ['create'] },
          'YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS',
        )
        const { email, password, name, role: bodyRole, data = {} } = request.body
        const { role: dataRole, ...fields } = data
        const requested = bodyRole ?? dataRole
        if (requested !== undefined && !callerMay(caller, { user: ['set-role'] }))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE')
        const role = requested === undefined ? null : checkedRoles(requested)
        const user = await createUserByAdmin(ctx, originOf(request), caller.actor, {
          email,
          password: password ?? null,
          name,
          role,
          ...adminCreateDataOf(caller, fields),
        })
        return { user: userJson(user) }
      },
    )

    app.post(
      '/admin/update-user',
      {
        schema: {
          summary: "Update a user's details",
          tags: ['Admin'],
          body: body({
            userId: UserId,
            data: Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), FREE_FORM),
          }),
          response: {
            ...errorResponses(
              ...ADMIN_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS',
              'YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE',
              'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS',
              'YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL',
              'NO_DATA_TO_UPDATE',
              'PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER',
              'INVALID_ROLE_TYPE',
              'YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE',
              'YOU_CANNOT_BAN_YOURSELF',
              'INVALID_EMAIL',
              ['USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', 400],
              'USER_NOT_FOUND',
            ),
            200: UserSchema,
          },
        },
      },
      async (request, reply) => {
        const caller = await authorize(
          request,
          reply,
          { user: ['update'] },
          'YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS',
        )
        const { userId, data } = request.body
        const update = adminUpdateOf(caller, userId, data)
        return userJson(await updateUserByAdmin(ctx, originOf(request), caller.actor, userId, update))
      },
    )

    app.post(
      '/admin/set-role',
      {
        schema: {
          summary: 'Set the role(s) of a user',
          tags: ['Admin'],
          body: body({ userId: UserId, role: RoleValue }),
          response: {
            ...errorResponses(
              ...ADMIN_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE',
              'YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE',
              'INVALID_ROLE_TYPE',
              'USER_NOT_FOUND',
            ),
            200: UserAnswer,
          },
        },
      },
      async (request, reply) => {
        const caller = await authorize(
          request,
          reply,
          { user: ['set-role'] },
          'YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE',
        )
        const role = checkedRoles(request.body.role)
        const user = await setRoleByAdmin(ctx, originOf(request), caller.actor, {
          userId: request.body.userId,
          role,
        })
        return { user: userJson(user) }
      },
    )

    app.post(
      '/admin/ban-user',
      {
        schema: {
          summary: 'Ban a user: their sessions end at once and no sign-in works until the ban ends',
          tags: ['Admin'],
          body: body({
            userId: UserId,
            banReason: Type.Optional(Type.String({ maxLength: 1024 })),
            // As better-auth: 0 is as if left out; below 0, a ban already over (it lifts at the next sign-in).
            banExpiresIn: Type.Optional(
              Type.Number({ minimum: -100 * 365 * 86_400, maximum: 100 * 365 * 86_400 }),
            ),
          }),
          response: {
            ...errorResponses(
              ...ADMIN_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS',
              'YOU_CANNOT_BAN_YOURSELF',
              'USER_NOT_FOUND',
            ),
            200: UserAnswer,
          },
        },
      },
      async (request, reply) => {
        const caller = await authorize(request, reply, { user: ['ban'] }, 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS')
        const { userId, banReason, banExpiresIn } = request.body
        const user = await banUserByAdmin(ctx, originOf(request), caller.actor, {
          userId,
          banReason: banReason ?? null,
          banExpiresIn: banExpiresIn ?? null,
        })
        return { user: userJson(user) }
      },
    )

    app.post(
      '/admin/unban-user',
      {
        schema: {
          summary: 'Lift a ban',
          tags: ['Admin'],
          body: body({ userId: UserId }),
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS', 'USER_NOT_FOUND'),
            200: UserAnswer,
          },
        },
      },
      async (request, reply) => {
        const caller = await authorize(request, reply, { user: ['ban'] }, 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS')
        return {
          user: userJson(await unbanUserByAdmin(ctx, originOf(request), caller.actor, request.body.userId)),
        }
      },
    )

    app.post(
      '/admin/remove-user',
      {
        schema: {
          summary: 'Remove a user: sessions end, and their personal data is erased from the log',
          tags: ['Admin'],
          body: body({ userId: UserId }),
          response: {
            ...errorResponses(
              ...ADMIN_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS',
              'YOU_CANNOT_REMOVE_YOURSELF',
              'USER_NOT_FOUND',
            ),
            200: SuccessSchema,
          },
        },
      },
      async (request, reply) => {
        const caller = await authorize(
          request,
          reply,
          { user: ['delete'] },
          'YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS',
        )
        await removeUserByAdmin(ctx, originOf(request), caller.actor, request.body.userId)
        return { success: true }
      },
    )

    app.post(
      '/admin/set-user-password',
      {
        schema: {
          summary: "Set a user's password",
          tags: ['Admin'],
          body: body({ userId: UserId, newPassword: Type.String({ minLength: 1, maxLength: 4096 }) }),
          response: {
            ...errorResponses(
              ...ADMIN_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD',
              'PASSWORD_TOO_SHORT',
              'PASSWORD_TOO_LONG',
              'USER_NOT_FOUND',
            ),
            200: StatusSchema,
          },
        },
      },
      async (request, reply) => {
        const caller = await authorize(
          request,
          reply,
          { user: ['set-password'] },
          'YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD',
        )
        await setUserPasswordByAdmin(ctx, originOf(request), caller.actor, request.body)
        return { status: true }
      },
    )

    app.post(
      '/admin/list-user-sessions',
      {
        schema: {
          summary: "List a user's sessions",
          tags: ['Admin'],
          body: body({ userId: UserId }),
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS'),
            200: Type.Object({ sessions: Type.Array(SessionSchema) }),
          },
        },
      },
      async (request, reply) => {
        await authorize(request, reply, { session: ['list'] }, 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS')
        const sessions = await listSessionsOfUser(ctx.db, request.body.userId)
        const now = ctx.clock().getTime()
        // `token` is the session's id: the handle revoke-user-session takes (raw tokens are not kept).
        return {
          sessions: sessions
            .filter((session) => session.expires_at.getTime() > now)
            .map((session) => sessionJson(session, session.id)),
        }
      },
    )

    app.post(
      '/admin/revoke-user-session',
      {
        schema: {
          summary: "End one of a user's sessions",
          description:
            '`sessionToken`: the `token` list-user-sessions gives (the session id), or a raw token.',
          tags: ['Admin'],
          body: body({ sessionToken: Type.String({ minLength: 1, maxLength: 256 }) }),
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS'),
            200: SuccessSchema,
          },
        },
      },
      async (request, reply) => {
        const caller = await authorize(
          request,
          reply,
          { session: ['revoke'] },
          'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS',
        )
        await revokeUserSessionByAdmin(ctx, originOf(request), caller.actor, request.body.sessionToken)
        return { success: true }
      },
    )

    app.post(
      '/admin/revoke-user-sessions',
      {
        schema: {
          summary: 'End every session of a user',
          tags: ['Admin'],
          body: body({ userId: UserId }),
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS'),
            200: SuccessSchema,
          },
        },
      },
      async (request, reply) => {
        const caller = await authorize(
          request,
          reply,
          { session: ['revoke'] },
          'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS',
        )
        await revokeUserSessionsByAdmin(ctx, originOf(request), caller.actor, request.body.userId)
        return { success: true }
      },
    )

    app.post(
      '/admin/impersonate-user',
      {
        schema: {
          summary: 'Act as a user for up to an hour',
          description:
            "Opens a session as the user, marked `impersonatedBy`; the operator's own session waits in the `admin_session` cookie until stop-impersonating.",
          tags: ['Admin'],
          body: body({ userId: UserId }),
          response: {
            ...errorResponses(
              ...ADMIN_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS',
              'YOU_CANNOT_IMPERSONATE_ADMINS',
              'USER_NOT_FOUND',
              'BANNED_USER',
            ),
            200: Type.Object({ session: SessionSchema, user: UserSchema }),
          },
        },
      },
      async (request, reply) => {
        const caller = await authorize(
          request,
          reply,
          { user: ['impersonate'] },
          'YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS',
        )
        // Only a signed-in operator has a session to come back to.
        if (caller.kind !== 'user') throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS')
        const operator = caller.session
        const dontRemember = hasDontRememberCookie(request, settings)
        const { adminRoles, adminUserIds, allowImpersonatingAdmins, impersonationSessionDuration } =
          ctx.config.admin
        const { session, user } = await impersonateUser(
          ctx,
          originOf(request),
          operator,
          request.body.userId,
          {
            adminRoles,
            adminUserIds,
            allowImpersonatingAdmins,
            lifetimeSeconds: impersonationSessionDuration,
          },
        )
        const row = await findSessionById(ctx.db, session.sessionId)
        if (!row) throw AUTH_ERRORS.error('FAILED_TO_CREATE_SESSION')
        clearSessionCookies(reply, settings)
        reply.setCookie(
          adminCookieName(settings.secure),
          signCookieValue(`${operator.token}:${dontRemember ? 'true' : ''}`, settings.secret),
          { path: '/', httpOnly: true, sameSite: 'lax', secure: settings.secure },
        )
        setSessionCookie(reply, session, settings)
        return { session: sessionJson(row, session.token), user: userJson(user) }
      },
    )

    app.post(
      '/admin/stop-impersonating',
      {
        preHandler: requireSession,
        schema: {
          summary: "Stop impersonating: back to the operator's own session",
          tags: ['Admin'],
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'NOT_IMPERSONATING', 'ADMIN_SESSION_NOT_FOUND'),
            200: Type.Object({ session: SessionSchema, user: UserSchema }),
          },
        },
      },
      async (request, reply) => {
        const signed = request.cookies[adminCookieName(settings.secure)]
        const value = signed
          ? unsignCookieValue(signed, verifyingSecrets(settings) as readonly Secret[])
          : null
        const [adminToken = null, dontRemember = ''] = value?.split(':') ?? []
        const back = await stopImpersonating(ctx, originOf(request), authOf(request), adminToken)
        const rememberMe = dontRemember !== 'true'
        setSessionCookie(reply, { token: back.token, rememberMe }, settings)
        if (rememberMe) clearCookie(reply, cookieNames(settings.secure).dontRemember, settings)
        clearCookie(reply, adminCookieName(settings.secure), settings)
        return { session: sessionJson(back.session, back.token), user: userJson(back.user) }
      },
    )

    app.post(
      '/admin/has-permission',
      {
        schema: {
          summary: 'Whether the caller (or, for a server key, a user or role) holds permissions',
          tags: ['Admin'],
          body: body({
            userId: Type.Optional(Type.String({ maxLength: 256 })),
            role: Type.Optional(Type.String({ maxLength: 256 })),
            permission: Type.Optional(Permissions),
            permissions: Type.Optional(Permissions),
          }),
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'USER_NOT_FOUND'),
            200: Type.Object({ error: Type.Null(), success: Type.Boolean() }),
          },
        },
      },
      async (request, reply) => {
        const { userId, role, permission, permissions } = request.body
        // better-auth's body schema takes exactly one of the two: none, or both, is an invalid body
        // (400 VALIDATION_ERROR, in its validator's words), refused before the session is looked at.
        const asked = permissions ?? permission
        if (!asked || (permissions && permission))
          throw new DomainError('VALIDATION_ERROR', 400, '[body] Invalid input')
        const caller = await guard.callerOf(request, reply)
        if (caller.kind === 'user') return { error: null, success: callerMay(caller, asked) }
        if (role !== undefined) return { error: null, success: hasAdminPermission(role, asked) }
        const user = userId === undefined ? undefined : await findUserById(ctx.db, userId)
        if (!user) throw AUTH_ERRORS.error('USER_NOT_FOUND')
        const policy = { adminUserIds: ctx.config.admin.adminUserIds }
        return { error: null, success: userMay(user, asked, policy) }
      },
    )
  }
