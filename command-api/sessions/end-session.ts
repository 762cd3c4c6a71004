/// Ending sessions: one (sign-out, revoke), or several of a user's (revoke others, revoke all).

import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../app/server/context.js'
import { type RevocationReason, sessionDecider, sessionStream } from '../../domain/session/session.js'
import { metadataFor } from '../../infra/http/request-metadata.js'

export const revokeSession = async (
  { handle, clock }: AppContext,
  request: FastifyRequest,
  { sessionId, requestedBy, reason }: { sessionId: string; requestedBy: string; reason: RevocationReason },
): Promise<void> => {
  await handle(
    sessionDecider,
    sessionStream(sessionId),
    { type: 'revoke-session', requestedBy, reason },
    { metadata: metadataFor(request, { type: 'user', userId: requestedBy }, clock()) },
  )
}

export const expireSession = async (
  { handle, clock }: AppContext,
  request: FastifyRequest,
  session: { id: string },
): Promise<void> => {
  const now = clock()
  await handle(
    sessionDecider,
    sessionStream(session.id),
    { type: 'expire-session', now: now.toISOString() },
    { metadata: metadataFor(request, { type: 'system' }, now) },
  )
}
