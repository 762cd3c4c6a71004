/// Cross-site request forgery guard: a state-changing request that carries cookies must come from
/// a trusted origin, told by its `Origin` header or, when a browser left that out, its `Referer`.
/// Requests without cookies (API clients, servers, the bench) cannot ride a victim's session, so
/// they are not checked, except on the routes that sign in from nothing (below).

import type { FastifyRequest, onRequestAsyncHookHandler, onRequestHookHandler } from 'fastify'
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
  return originVerdict(request.headers, config)
}

/**
 * Login CSRF, on the routes that start a session from nothing (sign-in and sign-up by email, the
 * ones better-auth guards so): with no cookie there is no session to ride, but a forged sign-in
 * would leave the victim in the attacker's account, typing into it. So a request that shows a
 * browser's signs (Fetch Metadata, `Origin` or `Referer`) must come from a trusted origin, and a
 * top-level navigation from another site (a form posted there) is refused outright. One that shows
 * none (a server, a script) passes. Requests with cookies get `checkOrigin`.
 */
export const checkFirstLoginOrigin = (
  request: Pick<FastifyRequest, 'method' | 'headers'>,
  config: OriginCheckConfig,
): 'INVALID_ORIGIN' | 'MISSING_OR_NULL_ORIGIN' | 'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED' | null => {
  const { headers } = request
  if (SAFE_METHODS.has(request.method) || headers.cookie !== undefined) return null
  const site = headerText(headers['sec-fetch-site'])
  const mode = headerText(headers['sec-fetch-mode'])
  const dest = headerText(headers['sec-fetch-dest'])
  if (site || mode || dest) {
    if (site === 'cross-site' && mode === 'navigate') return 'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED'
    return originVerdict(headers, config)
  }
  return headers.origin || headers.referer ? originVerdict(headers, config) : null
}

/** The route-level `onRequest` hook for the first-login routes. */
export const firstLoginOriginHook =
  (config: OriginCheckConfig): onRequestAsyncHookHandler =>
  async (request) => {
    const failure = checkFirstLoginOrigin(request, config)
    if (failure) throw AUTH_ERRORS.error(failure)
  }

const headerText = (value: string | string[] | undefined): string =>
  (Array.isArray(value) ? value.join(',') : (value ?? '')).trim()

const originVerdict = (
  headers: FastifyRequest['headers'],
  config: OriginCheckConfig,
): 'INVALID_ORIGIN' | 'MISSING_OR_NULL_ORIGIN' | null => {
  const claimed = claimedOrigin(headers, config.baseOrigin)
  if (claimed === null) return 'MISSING_OR_NULL_ORIGIN'
  const origin = originOfAbsoluteUrl(claimed)
  return origin !== null && isTrustedOrigin(origin, config.trustedOrigins) ? null : 'INVALID_ORIGIN'
}

/** A route's `config` flag: another site posts to it by design (a SAML IdP's form to the ACS), and
 *  the route binds the request to its own flow instead (the plugin exempts its ACS too). */
export type CrossSitePostRoute = { crossSitePost?: boolean }

/**
 * The `onRequest` hook: runs before the body is read, so a forged request costs us nothing. A
 * callback hook that reads the route's options (built afresh by Fastify on each read) only for a
 * request that fails the check: it runs on every API request.
 */
export const originCheckHook =
  (config: OriginCheckConfig): onRequestHookHandler =>
  (request, _reply, done) => {
    const failure = checkOrigin(request, config)
    if (failure && !(request.routeOptions.config as CrossSitePostRoute | undefined)?.crossSitePost)
      throw AUTH_ERRORS.error(failure)
    done()
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
