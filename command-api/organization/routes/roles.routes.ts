/// Custom roles (registered only when `organization.dynamicAccessControl.enabled`): create, update
/// and delete.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../../domain/errors.js'
import { Id, Name, Permissions, Strict, TAGS } from '../../../http/organization/schemas.js'
import { RoleSchema, roleJson } from '../../../http/presenters/organization-presenters.js'
import { authOf, sessionGuards } from '../../../http/sessions/require-session.js'
import { errorResponses, SIGNED_IN_POST_ERRORS } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { createRole, deleteRole, updateRole } from '../roles.js'
import type { OrganizationRoutesContext } from './route-context.js'

const ROLE_ERRORS = [
  ...SIGNED_IN_POST_ERRORS,
  'NO_ACTIVE_ORGANIZATION',
  'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
  'INVALID_RESOURCE',
  'ROLE_NOT_FOUND',
  'ROLE_NAME_IS_ALREADY_TAKEN',
] as const

export const rolesRoutes =
  (ctx: OrganizationRoutesContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)

    app.post(
      '/organization/create-role',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Create a custom role for the organization',
          tags: TAGS,
          body: Type.Object(
            { organizationId: Type.Optional(Id), role: Name, permission: Permissions },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...ROLE_ERRORS,
              ['YOU_MUST_BE_IN_AN_ORGANIZATION_TO_CREATE_A_ROLE', 400],
              'YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE',
              'TOO_MANY_ROLES',
            ),
            200: Type.Object({ success: Type.Boolean(), roleData: RoleSchema, statements: Permissions }),
          },
        },
      },
      async (request) => {
        const role = await createRole(ctx, originOf(request), authOf(request), request.body)
        return { success: true, roleData: roleJson(role), statements: request.body.permission }
      },
    )

    app.post(
      '/organization/update-role',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Rename a custom role or change its permissions',
          tags: TAGS,
          body: Type.Object(
            {
              organizationId: Type.Optional(Id),
              roleName: Type.Optional(Name),
              roleId: Type.Optional(Id),
              data: Type.Object(
                { permission: Type.Optional(Permissions), roleName: Type.Optional(Name) },
                Strict,
              ),
            },
            Strict,
          ),
          response: {
            ...errorResponses(...ROLE_ERRORS, 'YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE'),
            200: Type.Object({ success: Type.Boolean(), roleData: RoleSchema }),
          },
        },
      },
      async (request) => {
        const { roleId, roleName, organizationId, data } = request.body
        const roleIdOrName = roleId ?? roleName
        if (!roleIdOrName) throw AUTH_ERRORS.error('ROLE_NOT_FOUND')
        const role = await updateRole(ctx, originOf(request), authOf(request), {
          organizationId,
          roleIdOrName,
          data,
        })
        return { success: true, roleData: roleJson(role) }
      },
    )

    app.post(
      '/organization/delete-role',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Delete a custom role nobody holds',
          tags: TAGS,
          body: Type.Object(
            { organizationId: Type.Optional(Id), roleName: Type.Optional(Name), roleId: Type.Optional(Id) },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...ROLE_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE',
              'CANNOT_DELETE_A_PRE_DEFINED_ROLE',
              'ROLE_IS_ASSIGNED_TO_MEMBERS',
            ),
            200: Type.Object({ success: Type.Boolean() }),
          },
        },
      },
      async (request) => {
        const { roleId, roleName, organizationId } = request.body
        const roleIdOrName = roleId ?? roleName
        if (!roleIdOrName) throw AUTH_ERRORS.error('ROLE_NOT_FOUND')
        await deleteRole(ctx, originOf(request), authOf(request), { organizationId, roleIdOrName })
        return { success: true }
      },
    )
  }
