/// RFC 7591 client metadata on the wire (snake case, as better-auth's oauth-provider answers it) and
/// Tessera's `ClientSettings`. The secret is shown once, in the answer that made it, and never again.

import { type Static, Type } from 'typebox'
import type { ClientSettings, TokenEndpointAuthMethod } from '../../domain/oauth-provider/oauth-client.js'
import type { StoredClient } from '../../http/ports/oauth-client-lookup.js'

const Uri = Type.String({ maxLength: 2048 })
const Uris = Type.Array(Uri, { maxItems: 50 })

/** What a registration or an update may send (unknown members are ignored, RFC 7591 section 2). */
export const ClientMetadataBody = Type.Object({
  redirect_uris: Type.Optional(Uris),
  post_logout_redirect_uris: Type.Optional(Uris),
  client_name: Type.Optional(Type.String({ maxLength: 256 })),
  client_uri: Type.Optional(Uri),
  logo_uri: Type.Optional(Uri),
  contacts: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 20 })),
  tos_uri: Type.Optional(Uri),
  policy_uri: Type.Optional(Uri),
  token_endpoint_auth_method: Type.Optional(
    Type.Union([
      Type.Literal('client_secret_basic'),
      Type.Literal('client_secret_post'),
      Type.Literal('none'),
    ]),
  ),
  grant_types: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 10 })),
  response_types: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 10 })),
  scope: Type.Optional(Type.String({ maxLength: 2048 })),
  type: Type.Optional(Type.String({ maxLength: 32 })),
  skip_consent: Type.Optional(Type.Boolean()),
  enable_end_session: Type.Optional(Type.Boolean()),
  disabled: Type.Optional(Type.Boolean()),
  /** Tessera's: at registration, the organization to own the client (the plugin's `reference_id`). */
  reference_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
})
export type ClientMetadata = Static<typeof ClientMetadataBody>

export const ClientJsonSchema = Type.Object({
  client_id: Type.String(),
  client_secret: Type.Optional(Type.String()),
  client_secret_expires_at: Type.Optional(Type.Number()),
  client_id_issued_at: Type.Optional(Type.Number()),
  client_name: Type.Optional(Type.String()),
  client_uri: Type.Optional(Type.String()),
  logo_uri: Type.Optional(Type.String()),
  contacts: Type.Optional(Type.Array(Type.String())),
  tos_uri: Type.Optional(Type.String()),
  policy_uri: Type.Optional(Type.String()),
  redirect_uris: Type.Array(Type.String()),
  post_logout_redirect_uris: Type.Optional(Type.Array(Type.String())),
  token_endpoint_auth_method: Type.String(),
  grant_types: Type.Array(Type.String()),
  response_types: Type.Array(Type.String()),
  scope: Type.Optional(Type.String()),
  public: Type.Boolean(),
  user_id: Type.Optional(Type.String()),
  reference_id: Type.Optional(Type.String()),
  skip_consent: Type.Optional(Type.Boolean()),
  enable_end_session: Type.Optional(Type.Boolean()),
  disabled: Type.Optional(Type.Boolean()),
})

/** A new client's settings: RFC 7591's defaults (code flow, `client_secret_basic`). */
export const settingsOf = (body: ClientMetadata): ClientSettings => {
  const grantTypes = body.grant_types ?? ['authorization_code']
  const method: TokenEndpointAuthMethod = body.token_endpoint_auth_method ?? 'client_secret_basic'
  return {
    name: body.client_name ?? null,
    uri: body.client_uri ?? null,
    logoUri: body.logo_uri ?? null,
    contacts: body.contacts ?? null,
    tosUri: body.tos_uri ?? null,
    policyUri: body.policy_uri ?? null,
    redirectUris: body.redirect_uris ?? [],
    postLogoutRedirectUris: body.post_logout_redirect_uris ?? [],
    grantTypes,
    responseTypes: body.response_types ?? (grantTypes.includes('authorization_code') ? ['code'] : []),
    tokenEndpointAuthMethod: method,
    scopes: body.scope ? body.scope.split(' ').filter(Boolean) : null,
    skipConsent: body.skip_consent ?? false,
    enableEndSession: body.enable_end_session ?? false,
    disabled: body.disabled ?? false,
  }
}

/** The fields an update names, and only those. */
export const changesOf = (body: ClientMetadata): Partial<ClientSettings> => {
  const all = settingsOf(body)
  const named: Record<keyof ClientMetadata, keyof ClientSettings | null> = {
    redirect_uris: 'redirectUris',
    post_logout_redirect_uris: 'postLogoutRedirectUris',
    client_name: 'name',
    client_uri: 'uri',
    logo_uri: 'logoUri',
    contacts: 'contacts',
    tos_uri: 'tosUri',
    policy_uri: 'policyUri',
    token_endpoint_auth_method: 'tokenEndpointAuthMethod',
    grant_types: 'grantTypes',
    response_types: 'responseTypes',
    scope: 'scopes',
    type: null,
    skip_consent: 'skipConsent',
    enable_end_session: 'enableEndSession',
    disabled: 'disabled',
    reference_id: null,
  }
  const changes: Record<string, unknown> = {}
  for (const [wire, field] of Object.entries(named))
    if (field && body[wire as keyof ClientMetadata] !== undefined) changes[field] = all[field]
  return changes as Partial<ClientSettings>
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

export const clientJson = (client: StoredClient, secret?: string) => {
  const s = client.settings
  return {
    client_id: client.clientId,
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: seconds(client.createdAt),
    ...(s.name ? { client_name: s.name } : {}),
    ...(s.uri ? { client_uri: s.uri } : {}),
    ...(s.logoUri ? { logo_uri: s.logoUri } : {}),
    ...(s.contacts ? { contacts: s.contacts } : {}),
    ...(s.tosUri ? { tos_uri: s.tosUri } : {}),
    ...(s.policyUri ? { policy_uri: s.policyUri } : {}),
    redirect_uris: s.redirectUris,
    ...(s.postLogoutRedirectUris.length ? { post_logout_redirect_uris: s.postLogoutRedirectUris } : {}),
    token_endpoint_auth_method: s.tokenEndpointAuthMethod,
    grant_types: s.grantTypes,
    response_types: s.responseTypes,
    ...(s.scopes ? { scope: s.scopes.join(' ') } : {}),
    public: s.tokenEndpointAuthMethod === 'none',
    ...(client.userId ? { user_id: client.userId } : {}),
    ...(client.organizationId ? { reference_id: client.organizationId } : {}),
    skip_consent: s.skipConsent,
    enable_end_session: s.enableEndSession,
    disabled: s.disabled,
  }
}
