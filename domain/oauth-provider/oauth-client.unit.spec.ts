import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type ClientSettings, type OAuthClientEvent, oauthClientDecider } from './oauth-client.js'

const { given } = specFor(oauthClientDecider)

const settings: ClientSettings = {
  name: 'Notes',
  uri: null,
  logoUri: null,
  contacts: null,
  tosUri: null,
  policyUri: null,
  redirectUris: ['https://notes.example/cb'],
  postLogoutRedirectUris: [],
  grantTypes: ['authorization_code'],
  responseTypes: ['code'],
  tokenEndpointAuthMethod: 'client_secret_basic',
  scopes: null,
  skipConsent: false,
  enableEndSession: false,
  disabled: false,
}
const policy = {
  scopes: ['openid', 'profile'],
  grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
}
const register = (
  overrides: Partial<ClientSettings> = {},
  caller: { kind: 'operator' } | { kind: 'anonymous' } | { kind: 'owner'; userId: string } = {
    kind: 'operator',
  },
) => ({
  type: 'register-client' as const,
  clientId: 'c1',
  caller,
  owner: null,
  organizationId: null,
  settings: { ...settings, ...overrides },
  secretHash: overrides.tokenEndpointAuthMethod === 'none' ? null : 'secret-hash',
  source: 'admin' as const,
  policy,
  now: '2031-01-01T00:00:00.000Z',
})
const registered: OAuthClientEvent = {
  type: 'oauth-client.registered',
  data: {
    clientId: 'c1',
    userId: 'u1',
    settings,
    secretHash: 'secret-hash',
    source: 'managed',
    createdAt: '2031-01-01T00:00:00.000Z',
  },
}

describe('an OAuth client', () => {
  it('is registered with its secret hash', () => {
    given([])
      .when(register())
      .then([{ ...registered, data: { ...registered.data, userId: null, source: 'admin' } }])
  })

  it('refuses redirect URIs that are not exact https (or loopback http) URLs', () => {
    given([])
      .when(register({ redirectUris: ['http://notes.example/cb'] }))
      .thenThrows('invalid_redirect_uri')
    given([])
      .when(register({ redirectUris: ['https://notes.example/cb#x'] }))
      .thenThrows('invalid_redirect_uri')
    given([])
      .when(register({ redirectUris: [] }))
      .thenThrows('invalid_redirect_uri')
    given([])
      .when(register({ redirectUris: ['not a url'] }))
      .thenThrows('invalid_redirect_uri')
  })

  it('refuses unknown scopes and grant types, and client credentials for a public client', () => {
    given([])
      .when(register({ scopes: ['admin'] }))
      .thenThrows('invalid_scope')
    given([])
      .when(register({ grantTypes: ['implicit'] }))
      .thenThrows('invalid_client_metadata')
    given([])
      .when(
        register({
          tokenEndpointAuthMethod: 'none',
          grantTypes: ['authorization_code', 'client_credentials'],
        }),
      )
      .thenThrows('invalid_client_metadata')
  })

  it('lets only an operator make a client that skips consent', () => {
    given([])
      .when(register({ skipConsent: true }, { kind: 'anonymous' }))
      .thenThrows('invalid_client_metadata')
    given([])
      .when(register({ skipConsent: true }, { kind: 'owner', userId: 'u1' }))
      .thenThrows('invalid_client_metadata')
  })

  it("is managed by its owner or an operator; someone else's client is not found", () => {
    given([registered])
      .when({ type: 'delete-client', caller: { kind: 'owner', userId: 'u2' } })
      .thenThrows('not_found')
    given([registered])
      .when({ type: 'delete-client', caller: { kind: 'owner', userId: 'u1' } })
      .then([{ type: 'oauth-client.deleted', data: { clientId: 'c1', userId: 'u1' } }])
    given([registered])
      .when({ type: 'rotate-client-secret', caller: { kind: 'operator' }, secretHash: 'new' })
      .then([
        { type: 'oauth-client.secret-rotated', data: { clientId: 'c1', userId: 'u1', secretHash: 'new' } },
      ])
  })
})
