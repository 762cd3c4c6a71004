/// OAuth 2.0 errors (RFC 6749 section 5.2, RFC 7591 section 3.2.2, RFC 7009, OpenID Connect Core
/// 3.1.2.6): the wire names them in lower snake case with a description, `{error, error_description}`,
/// as better-auth's oauth-provider answers them. They are domain errors whose code is the OAuth
/// `error` and whose message is the `error_description`; the provider's routes present them so.

import { DomainError } from '../shared/errors.js'

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'invalid_token'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'not_found'
  | 'login_required'
  | 'consent_required'

const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  access_denied: 403,
  invalid_token: 401,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  not_found: 404,
  login_required: 400,
  consent_required: 400,
}

export class OAuthError extends DomainError<OAuthErrorCode> {
  readonly oauth = true
}

export const oauthError = (code: OAuthErrorCode, description: string, status = STATUS[code]): OAuthError =>
  new OAuthError(code, status, description)

export const isOAuthError = (value: unknown): value is OAuthError => value instanceof OAuthError

/**
 * Equality of two hashes in time that depends only on their length: the domain has no node:crypto,
 * and a hash of a presented secret compared with `===` would tell how many leading characters match.
 */
export const sameHash = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index)
  return difference === 0
}
