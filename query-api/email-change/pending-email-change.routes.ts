/// GET /pending-email-change (Tessera's own): the signed-in user's email change on its way, and the
/// link it waits on, so the portal can show it after a reload. Null once it completes, is replaced,
/// or its link has expired.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import { findPendingEmailChange } from '../../projections/pending-email-changes/pending-email-changes.repository.js'
import type { QueryContext } from '../context.js'

const PendingEmailChange = Type.Object({
  newEmail: Type.String(),
  /** `confirm-current`: the current address must approve; `verify-new`: the new one must verify. */
  step: Type.Union([Type.Literal('confirm-current'), Type.Literal('verify-new')]),
  requestedAt: Type.String(),
})

export const pendingEmailChangeRoutes =
  (ctx: QueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)

    app.get(
      '/pending-email-change',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Your email change on its way and the link it waits for, or null (Tessera)',
          tags: ['Account'],
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED'),
            200: Type.Object({ pending: Type.Union([PendingEmailChange, Type.Null()]) }),
          },
        },
      },
      async (request, reply) => {
        const { user } = authOf(request)
        const found = await findPendingEmailChange(ctx.db, user.id, {
          now: ctx.clock(),
          linkSeconds: ctx.config.emailVerification.expiresIn,
        })
        reply.header('cache-control', 'no-store')
        return {
          pending: found
            ? { newEmail: found.new_email, step: found.step, requestedAt: found.requested_at.toISOString() }
            : null,
        }
      },
    )
  }
