/// Discovery of Tessera as an OpenID provider: the OpenID Connect document
/// (`/.well-known/openid-configuration`) and the OAuth 2.0 authorization server metadata (RFC 8414),
/// under the API (`/api/auth/.well-known/...`, as better-auth's oauth-provider serves them) and at
/// the site root (`/.well-known/openid-configuration`, and the RFC 8414 form
/// `/.well-known/oauth-authorization-server/api/auth`).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ACR_VALUES } from '../../domain/oauth-provider/authentication-methods.js'
import type { Config } from '../../infra/config/config.js'

const issuerOf = (config: Config) => `${config.baseUrl.replace(/\/$/, '')}${config.basePath}`

export const discoveryDocument = (config: Config) => {
  const issuer = issuerOf(config)
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth2/authorize`,
    token_endpoint: `${issuer}/oauth2/token`,
    userinfo_endpoint: `${issuer}/oauth2/userinfo`,
    jwks_uri: `${issuer}/jwks`,
    registration_endpoint: `${issuer}/oauth2/register`,
    introspection_endpoint: `${issuer}/oauth2/introspect`,
    revocation_endpoint: `${issuer}/oauth2/revoke`,
    end_session_endpoint: `${issuer}/oauth2/end-session`,
    scopes_supported: config.oauthProvider.scopes,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [config.jwt.algorithm],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'acr',
      'amr',
      'sid',
      'at_hash',
      'name',
      'picture',
      'preferred_username',
      'updated_at',
      'email',
      'email_verified',
      'organizations',
    ],
    prompt_values_supported: ['login', 'consent', 'none', 'select_account'],
    acr_values_supported: [...ACR_VALUES],
  }
}

const DocumentSchema = Type.Object({ issuer: Type.String() }, { additionalProperties: true })
const schema = (summary: string) => ({ summary, tags: ['OAuth provider'], response: { 200: DocumentSchema } })

/** Under the API's base path. */
export const discoveryRoutes =
  (ctx: { config: Config }): FastifyPluginAsyncTypebox =>
  async (app) => {
    if (!ctx.config.oauthProvider.enabled) return
    const document = () => discoveryDocument(ctx.config)
    app.get('/.well-known/openid-configuration', { schema: schema('OpenID Connect discovery') }, document)
    app.get(
      '/.well-known/oauth-authorization-server',
      { schema: schema('OAuth 2.0 server metadata (RFC 8414)') },
      document,
    )
  }

/** At the site root: the RFC 8414 path with the issuer's path after it, and OpenID's. */
export const rootDiscoveryRoutes =
  (ctx: { config: Config }): FastifyPluginAsyncTypebox =>
  async (app) => {
    if (!ctx.config.oauthProvider.enabled) return
    const document = () => discoveryDocument(ctx.config)
    // Outside the API: left out of its reference document.
    const hidden = (summary: string) => ({ ...schema(summary), hide: true })
    app.get(
      `/.well-known/oauth-authorization-server${ctx.config.basePath}`,
      { schema: hidden('OAuth 2.0 server metadata at the RFC 8414 path') },
      document,
    )
    app.get(
      '/.well-known/openid-configuration',
      { schema: hidden('OpenID Connect discovery at the root') },
      document,
    )
  }
