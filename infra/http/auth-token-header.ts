/// `set-auth-token` (session-cookie.ts) is readable by a browser app on another trusted origin only
/// if the answer lists it in `Access-Control-Expose-Headers`: added, merged with what the answer
/// already exposes, whenever the request comes with a trusted `Origin` (when CORS applies).

import type { FastifyRequest, onSendHookHandler } from 'fastify'
import { exposeHeader } from './expose-headers.js'
import { AUTH_TOKEN_HEADER } from './session-cookie.js'
import { isTrustedOrigin, originOfAbsoluteUrl } from './trusted-url.js'

type CorsConfig = { readonly trustedOrigins: readonly string[] }

const fromTrustedOrigin = (request: FastifyRequest, config: CorsConfig): boolean => {
  const claimed = request.headers.origin
  const origin = claimed ? originOfAbsoluteUrl(claimed) : null
  return origin !== null && isTrustedOrigin(origin, config.trustedOrigins)
}

// A callback hook, not an async one: it runs on every answer, get-session's hot path included.
export const exposeAuthTokenHook =
  (config: CorsConfig): onSendHookHandler =>
  (request, reply, payload, done) => {
    if (reply.hasHeader(AUTH_TOKEN_HEADER) && fromTrustedOrigin(request, config))
      exposeHeader(reply, AUTH_TOKEN_HEADER)
    done(null, payload)
  }
