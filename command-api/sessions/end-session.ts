/// Ending sessions: one (sign-out, revoke), or several of a user's (revoke others, revoke all).

import { type RevocationReason, sessionDecider, sessionStream } from '../../domain/session/session.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { CommandContext } from '../context.js'

export const revokeSession = async (
  { handle, clock }: CommandContext,
  origin: RequestOrigin,
  { sessionId, requestedBy, reason }: { sessionId: string; requestedBy: string; reason: RevocationReason },
): Promise<void> => {
  await handle(
    sessionDecider,
    sessionStream(sessionId),
    { type: 'revoke-session', requestedBy, reason },
    { metadata: metadataFor(origin, { type: 'user', userId: requestedBy }, clock()) },
  )
}

export const expireSession = async (
  { handle, clock }: CommandContext,
  origin: RequestOrigin,
  sessionId: string,
): Promise<void> => {
  const now = clock()
  await handle(
    sessionDecider,
    sessionStream(sessionId),
    { type: 'expire-session', now: now.toISOString() },
    { metadata: metadataFor(origin, { type: 'system' }, now) },
  )
}
