/// An HTTP request described as a command's origin: its id, the client address (as TRUST_PROXY
/// lets Fastify see it), the user agent, cut to a length the log can hold, and where a trusted
/// proxy placed the client (request-place.ts), when it did.

import type { FastifyRequest } from 'fastify'
import type { Place, RequestOrigin } from '../../domain/shared/metadata.js'

const MAX_USER_AGENT_LENGTH = 512

/**
 * The session a guard found for the request (query-api's `request.auth`), read by shape: this leaf
 * only needs to know whether an operator is behind it.
 */
type WithAuth = { auth?: { session?: { impersonated_by?: string | null } } | null }

/** `request.place` as request-place.ts decorates it; absent when no place header is configured. */
type WithPlace = { place?: Place | null }

export const originOf = (request: Pick<FastifyRequest, 'id' | 'ip' | 'headers'>): RequestOrigin => {
  const userAgent = request.headers['user-agent']
  const impersonatedBy = (request as WithAuth).auth?.session?.impersonated_by ?? null
  const place = (request as WithPlace).place ?? null
  return {
    ...(impersonatedBy ? { impersonatedBy } : {}),
    ...(place ? { place } : {}),
    requestId: request.id,
    ip: request.ip || null,
    userAgent:
      typeof userAgent === 'string' && userAgent.length > 0
        ? userAgent.slice(0, MAX_USER_AGENT_LENGTH)
        : null,
  }
}
