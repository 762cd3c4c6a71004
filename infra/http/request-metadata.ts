/// Event metadata from an HTTP request: who acted, from which address and user agent, and the
/// request id that correlates everything one request caused.

import type { FastifyRequest } from 'fastify'
import type { Actor, EventMetadata } from '../../domain/shared/metadata.js'

/** What metadata needs of a request; the CLI builds one for server-side operations. */
export type RequestOrigin = Pick<FastifyRequest, 'id' | 'ip' | 'headers'>

export const clientIp = (request: RequestOrigin): string | null => request.ip || null

export const userAgentOf = (request: RequestOrigin): string | null => {
  const value = request.headers['user-agent']
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 512) : null
}

export const metadataFor = (request: RequestOrigin, actor: Actor, now: Date): EventMetadata => ({
  actor,
  ip: clientIp(request),
  userAgent: userAgentOf(request),
  correlationId: request.id,
  causationId: null,
  at: now.toISOString(),
})
