/// GET /events: the public event feed (domain/public-events/catalogue.ts), oldest first, with an
/// opaque cursor and an optional long poll. The server key reads every event; an organization's
/// owners and admins (a role holding the `webhook` permission) read that organization's only and
/// must name it. Tessera's own route.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { isPublicEventType } from '../../domain/public-events/catalogue.js'
import { mayReadWebhooks } from '../../domain/webhook/webhook.js'
import type { AdminGuardContext } from '../../http/guards/admin-caller.js'
import { SERVER_API_SECURITY } from '../../http/guards/server-key.js'
import { webhookCallers } from '../../http/guards/webhook-caller.js'
import { type EventStore, START } from '../../infra/event-store/event-store.js'
import { errorResponses } from '../../infra/http/openapi.js'
import { decodeCursor, encodeCursor } from '../../infra/webhooks/cursor.js'
import type { QueryContext } from '../context.js'
import { PublicEventSchema } from './public-event-schemas.js'
import { readFeed } from './read-feed.js'

const MAX_WAIT_SECONDS = 30

const FeedQuery = Type.Object(
  {
    after: Type.Optional(Type.String({ maxLength: 128 })),
    types: Type.Optional(Type.String({ maxLength: 4000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    wait: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_WAIT_SECONDS })),
    organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
)

const parseTypes = (text: string | undefined): string[] => {
  const types = (text ?? '')
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '')
  if (!types.every(isPublicEventType)) throw AUTH_ERRORS.error('UNKNOWN_EVENT_TYPE')
  return types
}

export const eventFeedRoutes =
  (ctx: QueryContext & AdminGuardContext & { store: EventStore }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const callerOf = webhookCallers(ctx)
    app.get(
      '/events',
      {
        schema: {
          summary: 'Read the public event feed after a cursor (long poll with `wait`, at most 30 s)',
          description:
            'Events in log order, oldest first. Store `cursor` and pass it as `after` next time: no event is missed or seen twice. `after` omitted: from the start of the log. The same cursor is what `/webhook/replay` takes.',
          tags: ['Events'],
          security: [{ sessionCookie: [] }, ...SERVER_API_SECURITY],
          querystring: FeedQuery,
          response: {
            ...errorResponses(
              'VALIDATION_ERROR',
              'TOO_MANY_REQUESTS',
              'UNAUTHORIZED',
              'INVALID_SERVER_KEY',
              'SERVER_KEY_FROM_BROWSER',
              'YOU_ARE_NOT_ALLOWED_TO_READ_EVENTS',
              'INVALID_CURSOR',
              'UNKNOWN_EVENT_TYPE',
            ),
            200: Type.Object({ events: Type.Array(PublicEventSchema), cursor: Type.String() }),
          },
        },
      },
      async (request, reply) => {
        const { query } = request
        const organizationId = query.organizationId ?? null
        const { authority } = await callerOf(request, reply, organizationId)
        // A member reads only the organization they name; the whole log is the operator's.
        const allowed =
          organizationId === null ? authority.kind === 'operator' : mayReadWebhooks(authority, organizationId)
        if (!allowed) throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_READ_EVENTS')
        const after = query.after === undefined || query.after === '' ? START : decodeCursor(query.after)
        if (!after) throw AUTH_ERRORS.error('INVALID_CURSOR')
        const page = await readFeed(
          ctx.store,
          {
            after,
            types: parseTypes(query.types),
            organizationId,
            limit: query.limit ?? 50,
            waitMs: (query.wait ?? 0) * 1000,
          },
          () => Date.now(),
        )
        return { events: page.events, cursor: encodeCursor(page.position) }
      },
    )
  }
