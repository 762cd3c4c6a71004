/// Users as better-auth 1.7.5's admin plugin manages them: create, update, remove, set a password.
/// Each route's permission is its config, checked by the admin permission hook (admin.routes.ts).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../../domain/errors.js'
import { callerMay } from '../../../http/guards/admin-caller.js'
import { adminCallerOf, adminPermission } from '../../../http/guards/admin-permission.js'
import { StatusSchema, UserSchema, userJson } from '../../../http/presenters/presenters.js'
import { FREE_FORM } from '../../../infra/http/free-form-json.js'
import { errorResponses } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import {
  checkedRoles,
  createUserByAdmin,
  removeUserByAdmin,
  setUserPasswordByAdmin,
  updateUserByAdmin,
} from '../manage-users.js'
import { adminCreateDataOf } from '../user-data.js'
import {
  ADMIN_ERRORS,
  type AdminRouteContext,
  body,
  RoleValue,
  SuccessSchema,
  UserAnswer,
  UserId,
} from './admin-schemas.js'

export const usersAdminRoutes =
  (ctx: AdminRouteContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/admin/create-user',
      {
        config: adminPermission({ user: ['create'] }, 'YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS'),
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
      async (request) => {
        const caller = adminCallerOf(request)
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
        config: adminPermission({ user: ['update'] }, 'YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS'),
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
      async (request) => {
        const caller = adminCallerOf(request)
        const { userId, data } = request.body
        return userJson(await updateUserByAdmin(ctx, originOf(request), caller, userId, data))
      },
    )

    app.post(
      '/admin/remove-user',
      {
        config: adminPermission({ user: ['delete'] }, 'YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS'),
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
      async (request) => {
        const caller = adminCallerOf(request)
        await removeUserByAdmin(ctx, originOf(request), caller.actor, request.body.userId)
        return { success: true }
      },
    )

    app.post(
      '/admin/set-user-password',
      {
        config: adminPermission({ user: ['set-password'] }, 'YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD'),
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
      async (request) => {
        const caller = adminCallerOf(request)
        await setUserPasswordByAdmin(ctx, originOf(request), caller.actor, request.body)
        return { status: true }
      },
    )
  }
