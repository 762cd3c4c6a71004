/// Members as better-auth 1.7 reads them: the caller's active membership and role, and an
/// organization's members, paged, sorted and filtered.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../../domain/errors.js'
import { organizationIdOr } from '../../../http/organization/active-organization.js'
import { Id, TAGS } from '../../../http/organization/schemas.js'
import { MemberWithUserSchema, memberWithUserJson } from '../../../http/presenters/organization-presenters.js'
import { type Caller, callerOfRequest } from '../../../http/sessions/caller.js'
import { sessionGuards } from '../../../http/sessions/require-session.js'
import { errorResponses } from '../../../infra/http/openapi.js'
import {
  findMember,
  findMemberWithUser,
  findOrganizationBySlug,
  listMembers,
  type MemberListing,
} from '../../../projections/organizations/organizations.repository.js'
import { type OrganizationQueryContext, SIGNED_IN } from './route-context.js'

/** The organization a query names (by slug or id), else the session's active one, else refuse. */
const namedOrganizationIdOf = async (
  ctx: OrganizationQueryContext,
  caller: Caller,
  query: { organizationId?: string; organizationSlug?: string },
): Promise<string> => {
  if (!query.organizationSlug) return organizationIdOr(caller, query.organizationId)
  const bySlug = await findOrganizationBySlug(ctx.db, query.organizationSlug)
  if (!bySlug) throw AUTH_ERRORS.error('ORGANIZATION_NOT_FOUND')
  return bySlug.id
}

export const membersQueryRoutes =
  (ctx: OrganizationQueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)

    app.get(
      '/organization/get-active-member',
      {
        preHandler: requireSession,
        schema: {
          summary: "The caller's membership in the active organization",
          tags: TAGS,
          response: {
            ...errorResponses(...SIGNED_IN, 'NO_ACTIVE_ORGANIZATION', 'MEMBER_NOT_FOUND'),
            200: MemberWithUserSchema,
          },
        },
      },
      async (request) => {
        const caller = callerOfRequest(request)
        const organizationId = organizationIdOr(caller, null)
        const member = await findMemberWithUser(ctx.db, organizationId, caller.userId)
        if (!member) throw AUTH_ERRORS.error('MEMBER_NOT_FOUND')
        return memberWithUserJson(member)
      },
    )

    app.get(
      '/organization/get-active-member-role',
      {
        preHandler: requireSession,
        schema: {
          summary: "The caller's role (or another member's) in the organization",
          tags: TAGS,
          querystring: Type.Object({
            userId: Type.Optional(Id),
            organizationId: Type.Optional(Id),
            organizationSlug: Type.Optional(Id),
          }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'ORGANIZATION_NOT_FOUND',
              'NO_ACTIVE_ORGANIZATION',
              'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
            ),
            200: Type.Object({ role: Type.String() }),
          },
        },
      },
      async (request) => {
        const caller = callerOfRequest(request)
        const organizationId = await namedOrganizationIdOf(ctx, caller, request.query)
        const own = await findMember(ctx.db, organizationId, caller.userId)
        if (!own) throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        if (!request.query.userId) return { role: own.role }
        const other = await findMember(ctx.db, organizationId, request.query.userId)
        if (!other) throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        return { role: other.role }
      },
    )

    app.get(
      '/organization/list-members',
      {
        preHandler: requireSession,
        schema: {
          summary: 'The members of an organization, with their users, paged',
          tags: TAGS,
          querystring: Type.Object({
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
            offset: Type.Optional(Type.Integer({ minimum: 0 })),
            sortBy: Type.Optional(
              Type.Union(['createdAt', 'role', 'userId', 'id'].map((v) => Type.Literal(v))),
            ),
            sortDirection: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
            filterField: Type.Optional(Type.Union(['role', 'userId', 'id'].map((v) => Type.Literal(v)))),
            filterValue: Type.Optional(Type.String({ maxLength: 256 })),
            filterOperator: Type.Optional(Type.Union(['eq', 'ne', 'contains'].map((v) => Type.Literal(v)))),
            organizationId: Type.Optional(Id),
            organizationSlug: Type.Optional(Id),
          }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'ORGANIZATION_NOT_FOUND',
              'NO_ACTIVE_ORGANIZATION',
              'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
            ),
            200: Type.Object({ members: Type.Array(MemberWithUserSchema), total: Type.Integer() }),
          },
        },
      },
      async (request) => {
        const caller = callerOfRequest(request)
        const query = request.query
        const organizationId = await namedOrganizationIdOf(ctx, caller, query)
        if (!(await findMember(ctx.db, organizationId, caller.userId)))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        const listing: MemberListing = {
          limit: query.limit,
          offset: query.offset,
          sortBy: query.sortBy as MemberListing['sortBy'],
          sortDirection: query.sortDirection,
          filter:
            query.filterField && query.filterValue !== undefined
              ? {
                  field: query.filterField as 'role' | 'userId' | 'id',
                  operator: (query.filterOperator ?? 'eq') as 'eq' | 'ne' | 'contains',
                  value: query.filterValue,
                }
              : undefined,
        }
        const { members, total } = await listMembers(ctx.db, organizationId, listing)
        return { members: members.map(memberWithUserJson), total }
      },
    )
  }
