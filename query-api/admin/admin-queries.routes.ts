/// GET /admin/list-users and /admin/get-user (better-auth's admin plugin), and the operator
/// console's reading of one user's history and of their sign-in accounts and organizations
/// (GET /admin/user-activity and /admin/user-overview, Tessera's own).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { adminGuard, type ServerKeyCheck } from '../../http/guards/admin-caller.js'
import { UserSchema, userJson } from '../../http/presenters/presenters.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import { listActivityOfUser } from '../../projections/activity/activity.repository.js'
import { listAdminActions } from '../../projections/admin/admin-actions.js'
import {
  findUserById,
  findUserWithLastSeen,
  type UserWithLastSeen,
} from '../../projections/users/users.repository.js'
import { decodeCursor, encodeCursor } from '../activity/activity.routes.js'
import type { QueryContext } from '../context.js'
import { FILTER_OPERATORS, type ListUsersQuery, listUsers } from './list-users.js'
import { userOverview } from './user-overview.js'

const MAX_PAGE = 1000

/** A user as the operator reads one: better-auth's fields and Tessera's `lastSeenAt` (null: never). */
const AdminUserSchema = Type.Object({
  ...UserSchema.properties,
  lastSeenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})
const adminUserJson = (user: UserWithLastSeen) => ({
  ...userJson(user),
  lastSeenAt: user.last_seen_at?.toISOString() ?? null,
})
const Count = Type.String({ pattern: '^[0-9]{1,9}$' })

const ListUsersQuerySchema = Type.Object(
  {
    searchValue: Type.Optional(Type.String({ maxLength: 256 })),
    searchField: Type.Optional(Type.Union([Type.Literal('email'), Type.Literal('name')])),
    searchOperator: Type.Optional(
      Type.Union([Type.Literal('contains'), Type.Literal('starts_with'), Type.Literal('ends_with')]),
    ),
    limit: Type.Optional(Count),
    offset: Type.Optional(Count),
    sortBy: Type.Optional(Type.String({ maxLength: 64 })),
    sortDirection: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    filterField: Type.Optional(Type.String({ maxLength: 64 })),
    filterValue: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 256 }),
        Type.Array(Type.String({ maxLength: 256 }), { maxItems: 100 }),
      ]),
    ),
    filterOperator: Type.Optional(Type.Union(FILTER_OPERATORS.map((op) => Type.Literal(op)))),
  },
  { additionalProperties: false },
)

const ActivityItemSchema = Type.Object({
  id: Type.String(),
  type: Type.String(),
  at: Type.String(),
  ip: Type.Union([Type.String(), Type.Null()]),
  userAgent: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
})

/** better-auth omits limit and offset when they were not asked for (or were 0). */
/** The answers of a read about one user by id (get-user, user-overview). */
const ONE_USER_ERRORS = errorResponses(
  ...ANY_ROUTE_ERRORS,
  'UNAUTHORIZED',
  'YOU_ARE_NOT_ALLOWED_TO_GET_USER',
  'USER_NOT_FOUND',
)

const positive = (value: string | undefined): number | undefined => {
  const n = value === undefined ? 0 : Number(value)
  return n > 0 ? n : undefined
}

export const adminQueryRoutes =
  (ctx: QueryContext & { serverApi?: ServerKeyCheck }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const guard = adminGuard(ctx)

    app.get(
      '/admin/list-users',
      {
        schema: {
          summary: 'List users: search by email or name, filter, sort, page',
          tags: ['Admin'],
          querystring: ListUsersQuerySchema,
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED', 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS'),
            200: Type.Object({
              users: Type.Array(AdminUserSchema),
              total: Type.Number(),
              limit: Type.Optional(Type.Number()),
              offset: Type.Optional(Type.Number()),
            }),
          },
        },
      },
      async (request, reply) => {
        await guard.authorize(request, reply, { user: ['list'] }, 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS')
        const { limit: rawLimit, offset: rawOffset, ...rest } = request.query
        const limit = positive(rawLimit)
        const offset = positive(rawOffset)
        const query: ListUsersQuery = {
          ...rest,
          ...(limit !== undefined ? { limit: Math.min(limit, MAX_PAGE) } : {}),
          ...(offset !== undefined ? { offset } : {}),
        }
        const page = await listUsers(ctx.db, query)
        return {
          users: page.users.map(adminUserJson),
          total: page.total,
          ...(limit !== undefined ? { limit } : {}),
          ...(offset !== undefined ? { offset } : {}),
        }
      },
    )

    app.get(
      '/admin/get-user',
      {
        schema: {
          summary: 'Get a user by id',
          tags: ['Admin'],
          querystring: Type.Object({ id: Type.String({ maxLength: 256 }) }, { additionalProperties: false }),
          response: {
            ...ONE_USER_ERRORS,
            200: AdminUserSchema,
          },
        },
      },
      async (request, reply) => {
        await guard.authorize(request, reply, { user: ['get'] }, 'YOU_ARE_NOT_ALLOWED_TO_GET_USER')
        const user = await findUserWithLastSeen(ctx.db, request.query.id)
        if (!user) throw AUTH_ERRORS.error('USER_NOT_FOUND')
        return adminUserJson(user)
      },
    )

    app.get(
      '/admin/user-activity',
      {
        schema: {
          summary: "A user's account history, newest first (operator console)",
          description:
            'The same entries the person sees in GET /activity, for operators whose role may get users.',
          tags: ['Admin'],
          querystring: Type.Object(
            {
              userId: Type.String({ maxLength: 256 }),
              limit: Type.Optional(Type.String({ pattern: '^([1-9][0-9]?|100)$' })),
              cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED', 'YOU_ARE_NOT_ALLOWED_TO_GET_USER'),
            200: Type.Object({
              items: Type.Array(ActivityItemSchema),
              nextCursor: Type.Union([Type.String(), Type.Null()]),
            }),
          },
        },
      },
      async (request, reply) => {
        await guard.authorize(request, reply, { user: ['get'] }, 'YOU_ARE_NOT_ALLOWED_TO_GET_USER')
        const { userId, limit, cursor } = request.query
        const before = cursor ? decodeCursor(cursor) : null
        if (cursor && !before) throw AUTH_ERRORS.error('VALIDATION_ERROR')
        const page = await listActivityOfUser(ctx.db, userId, { limit: Number(limit ?? 20), before })
        const last = page.items.at(-1)
        return {
          items: page.items.map((item) => ({
            id: item.id,
            type: item.type,
            at: item.at.toISOString(),
            ip: item.ip,
            userAgent: item.userAgent,
            details: item.details,
          })),
          nextCursor: page.hasMore && last ? encodeCursor(last.position) : null,
        }
      },
    )

    app.get(
      '/admin/user-overview',
      {
        schema: {
          summary: "A user's sign-in accounts and organizations (operator console)",
          description:
            'The credential account and every linked provider (never a token), and each organization the user belongs to with their role there, for operators whose role may get users.',
          tags: ['Admin'],
          querystring: Type.Object(
            { userId: Type.String({ maxLength: 256 }) },
            { additionalProperties: false },
          ),
          response: {
            ...ONE_USER_ERRORS,
            200: Type.Object({
              accounts: Type.Array(
                Type.Object({
                  id: Type.String(),
                  providerId: Type.String(),
                  accountId: Type.String(),
                  createdAt: Type.String({ format: 'date-time' }),
                }),
              ),
              organizations: Type.Array(
                Type.Object({
                  id: Type.String(),
                  name: Type.String(),
                  slug: Type.String(),
                  role: Type.String(),
                }),
              ),
            }),
          },
        },
      },
      async (request, reply) => {
        await guard.authorize(request, reply, { user: ['get'] }, 'YOU_ARE_NOT_ALLOWED_TO_GET_USER')
        const { userId } = request.query
        if (!(await findUserById(ctx.db, userId))) throw AUTH_ERRORS.error('USER_NOT_FOUND')
        return userOverview(ctx.db, userId)
      },
    )

    app.get(
      '/admin/audit',
      {
        schema: {
          summary: 'Every operator action across the service, newest first (operator console)',
          description:
            "Operators' actions on accounts (create, edit, role, ban, password, sessions, impersonation, removal) by a user, a server key or through impersonation, and role changes, with the names and addresses of the acting user and of the account while they exist. Filter by the acting admin (their id or address, or a server key's name) and by action (event type).",
          tags: ['Admin'],
          querystring: Type.Object(
            {
              actor: Type.Optional(Type.String({ maxLength: 256 })),
              action: Type.Optional(Type.String({ maxLength: 64 })),
              limit: Type.Optional(Type.String({ pattern: '^([1-9][0-9]?|100)$' })),
              offset: Type.Optional(Count),
            },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED', 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS'),
            200: Type.Object({
              actions: Type.Array(
                Type.Object({
                  id: Type.String(),
                  at: Type.String(),
                  actor: Type.Object({
                    type: Type.String(),
                    id: Type.Union([Type.String(), Type.Null()]),
                    email: Type.Union([Type.String(), Type.Null()]),
                    name: Type.Union([Type.String(), Type.Null()]),
                  }),
                  impersonatedBy: Type.Union([Type.String(), Type.Null()]),
                  action: Type.String(),
                  userId: Type.Union([Type.String(), Type.Null()]),
                  userEmail: Type.Union([Type.String(), Type.Null()]),
                  userName: Type.Union([Type.String(), Type.Null()]),
                  details: Type.Record(Type.String(), Type.Unknown()),
                }),
              ),
              total: Type.Number(),
            }),
          },
        },
      },
      async (request, reply) => {
        await guard.authorize(request, reply, { user: ['list'] }, 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS')
        const { actor, action, limit, offset } = request.query
        const page = await listAdminActions(ctx.db, {
          ...(actor ? { actor } : {}),
          ...(action ? { action } : {}),
          limit: Number(limit ?? 50),
          offset: Number(offset ?? 0),
        })
        return {
          actions: page.actions.map((row) => ({
            id: row.id,
            at: row.at.toISOString(),
            actor: { type: row.actor_type, id: row.actor_id, email: row.actor_email, name: row.actor_name },
            impersonatedBy: row.impersonated_by,
            action: row.action,
            userId: row.subject_user_id,
            userEmail: row.subject_email,
            userName: row.subject_name,
            details: row.details,
          })),
          total: page.total,
        }
      },
    )
  }
