/// An HTTP request described as a command's origin: its id, the client address (as TRUST_PROXY
/// lets Fastify see it) and the user agent, cut to a length the log can hold.

import type { FastifyRequest } from 'fastify'
import type { RequestOrigin } from '../../domain/shared/metadata.js'

const MAX_USER_AGENT_LENGTH = 512

export const originOf = (request: Pick<FastifyRequest, 'id' | 'ip' | 'headers'>): RequestOrigin => {
  const userAgent = request.headers['user-agent']
  return {
    requestId: request.id,
    ip: request.ip || null,
    userAgent:
      typeof userAgent === 'string' && userAgent.length > 0
        ? userAgent.slice(0, MAX_USER_AGENT_LENGTH)
        : null,
  }
}
