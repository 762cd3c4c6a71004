/// Ending sessions: one (sign-out, revoke), or several of a user's (revoke others, revoke all).

import { type RevocationReason, sessionDecider, sessionStream } from '../../domain/session/session.js'
import { type Actor, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { CommandContext } from '../context.js'

/** Ended at the request of the session's user (`requestedBy`, checked to be its owner). */
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

/**
 * Ended as a consequence of something no signed-in user did (an anonymous password reset): the
 * log, and so the activity feed, names that actor rather than the session's owner.
 */
export const revokeSessionAs = async (
  { handle, clock }: CommandContext,
  origin: RequestOrigin,
  { sessionId, actor, reason }: { sessionId: string; actor: Actor; reason: RevocationReason },
): Promise<void> => {
  await handle(
    sessionDecider,
    sessionStream(sessionId),
    { type: 'revoke-session', requestedBy: null, reason },
    { metadata: metadataFor(origin, actor, clock()) },
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
