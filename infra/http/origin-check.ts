/// Cross-site request forgery guard: a state-changing request that carries cookies must come from
/// a trusted origin, told by its `Origin` header or, when a browser left that out, its `Referer`.
/// Requests without cookies (API clients, servers, the bench) cannot ride a victim's session, so
/// they are not checked.

import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { isTrustedOrigin, originOfAbsoluteUrl } from './trusted-url.js'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

type OriginCheckConfig = { readonly trustedOrigins: readonly string[]; readonly baseOrigin: string }

/** The outcome for one request's headers: pass, or the catalogue error to answer with. */
export const checkOrigin = (
  request: Pick<FastifyRequest, 'method' | 'headers'>,
  config: OriginCheckConfig,
): 'INVALID_ORIGIN' | 'MISSING_OR_NULL_ORIGIN' | null => {
  if (SAFE_METHODS.has(request.method) || request.headers.cookie === undefined) return null
  const claimed = claimedOrigin(request.headers, config.baseOrigin)
  if (claimed === null) return 'MISSING_OR_NULL_ORIGIN'
  const origin = originOfAbsoluteUrl(claimed)
  return origin !== null && isTrustedOrigin(origin, config.trustedOrigins) ? null : 'INVALID_ORIGIN'
}

/** The `onRequest` hook: runs before the body is read, so a forged request costs us nothing. */
export const originCheckHook =
  (config: OriginCheckConfig): onRequestAsyncHookHandler =>
  async (request) => {
    const failure = checkOrigin(request, config)
    if (failure) throw AUTH_ERRORS.error(failure)
  }

const claimedOrigin = (headers: FastifyRequest['headers'], baseOrigin: string): string | null => {
  const origin = headers.origin
  // Browsers send `Origin: null` from privacy-sensitive contexts. Like better-auth 1.7, a same-origin
  // request (per `Sec-Fetch-Site`, which pages cannot set) is taken to come from our own origin.
  if (origin === 'null') return headers['sec-fetch-site'] === 'same-origin' ? baseOrigin : null
  if (origin) return origin
  const referer = headers.referer
  return referer ? referer : null
}
