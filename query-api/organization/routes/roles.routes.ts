/// Custom roles as better-auth 1.7 reads them (registered only when
/// `organization.dynamicAccessControl.enabled`): list-roles and get-role, for members whose role may
/// read access control.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../../domain/errors.js'
import { hasPermission } from '../../../domain/organization/permissions.js'
import { organizationIdOr } from '../../../http/organization/active-organization.js'
import { Id, TAGS } from '../../../http/organization/schemas.js'
import { RoleSchema, roleJson } from '../../../http/presenters/organization-presenters.js'
import { type Caller, callerOfRequest } from '../../../http/sessions/caller.js'
import { sessionGuards } from '../../../http/sessions/require-session.js'
import { errorResponses } from '../../../infra/http/openapi.js'
import {
  customRolesOf,
  findMember,
  listRoles,
} from '../../../projections/organizations/organizations.repository.js'
import { type OrganizationQueryContext, SIGNED_IN } from './route-context.js'

export const rolesQueryRoutes =
  (ctx: OrganizationQueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const readableRoles = async (
      caller: Caller,
      organizationId: string | undefined,
      denied: 'YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE' | 'YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE',
    ) => {
      const id = organizationIdOr(caller, organizationId)
      const own = await findMember(ctx.db, id, caller.userId)
      if (!own) throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
      if (!hasPermission(own.role, { ac: ['read'] }, await customRolesOf(ctx.db, id)))
        throw AUTH_ERRORS.error(denied)
      return listRoles(ctx.db, id)
    }

    app.get(
      '/organization/list-roles',
      {
        preHandler: requireSession,
        schema: {
          summary: "An organization's custom roles",
          tags: TAGS,
          querystring: Type.Object({ organizationId: Type.Optional(Id) }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'NO_ACTIVE_ORGANIZATION',
              'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE',
            ),
            200: Type.Array(RoleSchema),
          },
        },
      },
      async (request) =>
        (
          await readableRoles(
            callerOfRequest(request),
            request.query.organizationId,
            'YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE',
          )
        ).map(roleJson),
    )

    app.get(
      '/organization/get-role',
      {
        preHandler: requireSession,
        schema: {
          summary: 'One custom role, by name or id',
          tags: TAGS,
          querystring: Type.Object({
            organizationId: Type.Optional(Id),
            roleName: Type.Optional(Id),
            roleId: Type.Optional(Id),
          }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'NO_ACTIVE_ORGANIZATION',
              'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE',
              'ROLE_NOT_FOUND',
            ),
            200: RoleSchema,
          },
        },
      },
      async (request) => {
        const { organizationId, roleName, roleId } = request.query
        if (!roleName && !roleId) throw AUTH_ERRORS.error('ROLE_NOT_FOUND')
        const roles = await readableRoles(
          callerOfRequest(request),
          organizationId,
          'YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE',
        )
        const role = roles.find((row) => (roleName ? row.role === roleName : row.id === roleId))
        if (!role) throw AUTH_ERRORS.error('ROLE_NOT_FOUND')
        return roleJson(role)
      },
    )
  }
