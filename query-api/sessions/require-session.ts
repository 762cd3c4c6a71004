/// A preHandler for routes that need a signed-in user: 401 UNAUTHORIZED without a live session.

import type { FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_ERRORS } from '../../domain/errors.js'
import type { FoundSession, SessionResolver } from './resolve-session.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's live session, set by `requireSession`. */
    auth: FoundSession | null
  }
}

export async function requireSession(
  this: { tessera: { sessions: SessionResolver; clock: () => Date } },
  request: FastifyRequest,
  _reply: FastifyReply,
): Promise<void> {
  const found = await optionalSession(this.tessera, request)
  if (!found) throw AUTH_ERRORS.error('UNAUTHORIZED')
  request.auth = found
}

/** The caller's live session when there is one; routes that work signed in or out use this. */
export const optionalSession = async (
  { sessions, clock }: { sessions: SessionResolver; clock: () => Date },
  request: FastifyRequest,
): Promise<FoundSession | null> => {
  const token = sessions.tokenFrom(request)
  const lookup = token ? await sessions.lookup(token, clock()) : null
  return lookup?.status === 'valid' ? lookup.found : null
}

/** The session `requireSession` found; only call in routes that use it. */
export const authOf = (request: FastifyRequest): FoundSession => {
  if (!request.auth) throw AUTH_ERRORS.error('UNAUTHORIZED')
  return request.auth
}
