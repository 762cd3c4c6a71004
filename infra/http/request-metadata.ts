/// An HTTP request described as a command's origin: its id, the client address (as TRUST_PROXY
/// lets Fastify see it) and the user agent, cut to a length the log can hold.

import type { FastifyRequest } from 'fastify'
import type { RequestOrigin } from '../../domain/shared/metadata.js'

const MAX_USER_AGENT_LENGTH = 512

/**
 * The session a guard found for the request (query-api's `request.auth`), read by shape: this leaf
 * only needs to know whether an operator is behind it.
 */
type WithAuth = { auth?: { session?: { impersonated_by?: string | null } } | null }

export const originOf = (request: Pick<FastifyRequest, 'id' | 'ip' | 'headers'>): RequestOrigin => {
  const userAgent = request.headers['user-agent']
  const impersonatedBy = (request as WithAuth).auth?.session?.impersonated_by ?? null
  return {
    ...(impersonatedBy ? { impersonatedBy } : {}),
    requestId: request.id,
    ip: request.ip || null,
    userAgent:
      typeof userAgent === 'string' && userAgent.length > 0
        ? userAgent.slice(0, MAX_USER_AGENT_LENGTH)
        : null,
  }
}
