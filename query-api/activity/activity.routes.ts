/// GET /activity: the signed-in person's own account history, newest first, a page at a time.
/// The cursor is opaque to clients: the base64url of the last item's place in the log's order.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { DomainError } from '../../domain/shared/errors.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { formatPosition, type GlobalPosition, parsePosition } from '../../infra/event-store/event-store.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import { type ActivityItem, listActivityOfUser } from '../../projections/activity/activity.repository.js'
import type { QueryContext } from '../context.js'

const DEFAULT_LIMIT = 20
const MAX_BIGINT = 2n ** 63n - 1n

const ActivityQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^([1-9][0-9]?|100)$' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
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

const ActivityPageSchema = Type.Object({
  items: Type.Array(ActivityItemSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
})

export const encodeCursor = (position: GlobalPosition): string =>
  Buffer.from(formatPosition(position)).toString('base64url')

/** The position a cursor stands for; null for anything this server did not give out. */
export const decodeCursor = (cursor: string): GlobalPosition | null => {
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  // Node decodes leniently; only the exact encoding of a position is accepted.
  if (Buffer.from(text).toString('base64url') !== cursor) return null
  const position = parsePosition(text)
  if (!position || position.tx > MAX_BIGINT || position.seq > MAX_BIGINT) return null
  return position
}

const invalidCursor = () =>
  new DomainError(
    'VALIDATION_ERROR',
    AUTH_ERRORS.VALIDATION_ERROR.status,
    'Invalid query parameters: [query.cursor] is not a cursor from a previous page',
  )

const itemJson = (item: ActivityItem) => ({
  id: item.id,
  type: item.type,
  at: item.at.toISOString(),
  ip: item.ip,
  userAgent: item.userAgent,
  details: item.details,
})

export const activityQueryRoutes =
  (ctx: QueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)

    app.get(
      '/activity',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Your account history from the event log, newest first (Tessera)',
          tags: ['Account'],
          querystring: ActivityQuery,
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED'),
            200: ActivityPageSchema,
          },
        },
      },
      async (request, reply) => {
        const { user } = authOf(request)
        const before = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor)
        if (before === null && request.query.cursor !== undefined) throw invalidCursor()
        const limit = request.query.limit === undefined ? DEFAULT_LIMIT : Number(request.query.limit)
        const page = await listActivityOfUser(ctx.db, user.id, { limit, before })
        const last = page.items.at(-1)
        reply.header('cache-control', 'no-store')
        return {
          items: page.items.map(itemJson),
          nextCursor: page.hasMore && last ? encodeCursor(last.position) : null,
        }
      },
    )
  }
