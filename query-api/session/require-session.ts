/// A preHandler for routes that need a signed-in user: 401 UNAUTHORIZED without a live session.

import type { FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_ERRORS } from '../../domain/errors.js'
import type { FoundSession } from './resolve-session.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's live session, set by `requireSession`. */
    auth: FoundSession | null
  }
}

export async function requireSession(this: { tessera: { sessions: import('./resolve-session.js').SessionResolver; clock: () => Date } }, request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const { sessions, clock } = this.tessera
  const token = sessions.tokenFrom(request)
  const lookup = token ? await sessions.lookup(token, clock()) : { status: 'none' as const }
  if (lookup.status !== 'valid') throw AUTH_ERRORS.error('UNAUTHORIZED')
  request.auth = lookup.found
}

/** The session `requireSession` found; only call in routes that use it. */
export const authOf = (request: FastifyRequest): FoundSession => {
  if (!request.auth) throw AUTH_ERRORS.error('UNAUTHORIZED')
  return request.auth
}
