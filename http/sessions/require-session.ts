/// Session guards for routes: `requireSession` (a preHandler: 401 UNAUTHORIZED without a live
/// session) and `optionalSession` (for routes that work signed in or out). Both command and query
/// routes use them; they need only the session resolver and the clock.

import type { FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { DomainError } from '../../domain/shared/errors.js'
import type { FoundSession, SessionResolver } from './resolve-session.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's live session, set by `requireSession`. */
    auth: FoundSession | null
  }
}

type PreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

export type SessionGuards = {
  requireSession: PreHandler
  /** `requireSession` with better-auth's wording of a route's 401 (still code UNAUTHORIZED). */
  requireSessionSaying(message: string): PreHandler
  optionalSession(request: FastifyRequest): Promise<FoundSession | null>
}

export const sessionGuards = ({
  sessions,
  clock,
}: {
  sessions: SessionResolver
  clock: () => Date
}): SessionGuards => {
  const optionalSession = async (request: FastifyRequest): Promise<FoundSession | null> => {
    const token = sessions.tokenFrom(request)
    const now = clock()
    const lookup = token ? await sessions.lookup(token, now) : null
    if (lookup?.status !== 'valid') return null
    sessions.used(lookup.found, now)
    return lookup.found
  }
  const requireSessionSaying =
    (message?: string): PreHandler =>
    async (request) => {
      const found = await optionalSession(request)
      if (!found)
        throw message === undefined
          ? AUTH_ERRORS.error('UNAUTHORIZED')
          : new DomainError('UNAUTHORIZED', 401, message)
      request.auth = found
    }
  return { optionalSession, requireSession: requireSessionSaying(), requireSessionSaying }
}

/** The session `requireSession` found; only call in routes that use it. */
export const authOf = (request: FastifyRequest): FoundSession => {
  if (!request.auth) throw AUTH_ERRORS.error('UNAUTHORIZED')
  return request.auth
}
