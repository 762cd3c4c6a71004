/// Organizations as better-auth 1.7 reads them (organization/list, kept per user while this process
/// projects), and Tessera's audit feed of one organization (organization/activity).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../../domain/errors.js'
import { hasPermission } from '../../../domain/organization/permissions.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { organizationIdOr } from '../../../http/organization/active-organization.js'
import { subscribedOrganizationCache } from '../../../http/organization/organization-cache.js'
import { Id, Nullable, TAGS } from '../../../http/organization/schemas.js'
import { OrganizationSchema, organizationJson } from '../../../http/presenters/organization-presenters.js'
import { callerOfRequest } from '../../../http/sessions/caller.js'
import { authOf, sessionGuards } from '../../../http/sessions/require-session.js'
import { errorResponses } from '../../../infra/http/openapi.js'
import {
  customRolesOf,
  findMember,
  listOrganizationActivity,
  listOrganizationsOfUser,
} from '../../../projections/organizations/organizations.repository.js'
import type { OrganizationRow } from '../../../projections/organizations/organizations.table.js'
import { withInviteeAddresses } from './activity-addresses.js'
import { type OrganizationQueryContext, SIGNED_IN } from './route-context.js'

/** An opaque position in the feed: the last entry's place in the log. */
const encodeCursor = (position: string) => Buffer.from(position).toString('base64url')
const decodeCursor = (cursor: string | undefined): string | null => {
  if (!cursor) return null
  const position = Buffer.from(cursor, 'base64url').toString('utf8')
  if (!/^\d{20}:\d{10}$/.test(position)) throw invalidQueryCursor()
  return position
}
const invalidQueryCursor = () =>
  new DomainError('VALIDATION_ERROR', 400, 'Invalid query parameters: [query.cursor] is not a cursor')

export const organizationsQueryRoutes =
  (ctx: OrganizationQueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const rolesOn = ctx.config.organization.dynamicAccessControl.enabled
    // organization/list's answers per user (organization-cache.ts: any organization's event clears all).
    const lists = subscribedOrganizationCache<OrganizationRow[]>(ctx.projector, 'byUser')
    app.addHook('onClose', async () => lists.unsubscribe())
    const organizationsOf = async (userId: string) => {
      const kept = lists.cache.get(userId, 'list')
      if (kept) return kept.answer
      const generation = lists.cache.generation()
      const rows = await listOrganizationsOfUser(ctx.db, userId)
      lists.cache.set(
        userId,
        'list',
        { answer: rows, memberUserIds: null, size: rows.length + 1 },
        generation,
      )
      return rows
    }

    app.get(
      '/organization/list',
      {
        preHandler: requireSession,
        schema: {
          summary: 'The organizations the caller belongs to',
          tags: TAGS,
          response: { ...errorResponses(...SIGNED_IN), 200: Type.Array(OrganizationSchema) },
        },
      },
      async (request) => (await organizationsOf(authOf(request).user.id)).map(organizationJson),
    )

    app.get(
      '/organization/activity',
      {
        preHandler: requireSession,
        schema: {
          summary: "The organization's audit feed (owners and admins): who did what and when, newest first",
          tags: TAGS,
          querystring: Type.Object({
            organizationId: Type.Optional(Id),
            cursor: Type.Optional(Type.String({ maxLength: 512 })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'NO_ACTIVE_ORGANIZATION',
              'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION',
            ),
            200: Type.Object({
              entries: Type.Array(
                Type.Object({
                  id: Type.String(),
                  type: Type.String(),
                  actorUserId: Nullable(Type.String()),
                  details: Type.Record(Type.String(), Type.Unknown()),
                  at: Type.String(),
                }),
              ),
              nextCursor: Nullable(Type.String()),
            }),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const organizationId = organizationIdOr(callerOfRequest(request), request.query.organizationId)
        const own = await findMember(ctx.db, organizationId, auth.user.id)
        if (!own) throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        // Those who may change the organization (owners and admins by default) may read its history.
        const custom = rolesOn ? await customRolesOf(ctx.db, organizationId) : {}
        if (!hasPermission(own.role, { organization: ['update'] }, custom))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION')
        const limit = request.query.limit ?? 50
        const rows = await listOrganizationActivity(
          ctx.db,
          organizationId,
          decodeCursor(request.query.cursor),
          limit + 1,
        )
        const page = rows.slice(0, limit)
        const last = page.at(-1)
        const entries = page.map((row) => ({
          id: row.id,
          type: row.type,
          actorUserId: row.actor_user_id,
          details: JSON.parse(row.details) as Record<string, unknown>,
          at: row.at.toISOString(),
        }))
        // Whom an invitation was for, to those who may invite (owners and admins by default).
        const mayInvite = hasPermission(own.role, { invitation: ['create'] }, custom)
        return {
          entries: mayInvite ? await withInviteeAddresses(ctx.db, organizationId, entries) : entries,
          nextCursor: rows.length > limit && last ? encodeCursor(last.position) : null,
        }
      },
    )
  }
