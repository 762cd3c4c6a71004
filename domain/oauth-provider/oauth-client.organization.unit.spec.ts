import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import type { ClientCaller } from './client-authority.js'
import { type ClientSettings, type OAuthClientEvent, oauthClientDecider } from './oauth-client.js'

const { given } = specFor(oauthClientDecider)

const settings: ClientSettings = {
  name: 'Acme CRM',
  uri: null,
  logoUri: null,
  contacts: null,
  tosUri: null,
  policyUri: null,
  redirectUris: ['https://crm.acme.example/cb'],
  postLogoutRedirectUris: [],
  grantTypes: ['authorization_code'],
  responseTypes: ['code'],
  tokenEndpointAuthMethod: 'client_secret_basic',
  scopes: null,
  skipConsent: false,
  enableEndSession: false,
  disabled: false,
}
const policy = { scopes: ['openid'], grantTypes: ['authorization_code', 'refresh_token'] }
const member = (role: string, organizationId = 'acme'): ClientCaller => ({
  kind: 'member',
  userId: 'u1',
  organizationId,
  role,
  customRoles: {},
})
const register = (caller: ClientCaller, overrides: Partial<ClientSettings> = {}) => ({
  type: 'register-client' as const,
  clientId: 'c1',
  caller,
  owner: 'u1',
  organizationId: 'acme',
  settings: { ...settings, ...overrides },
  secretHash: 'secret-hash',
  source: 'managed' as const,
  policy,
  now: '2031-01-01T00:00:00.000Z',
})
const registered: OAuthClientEvent = {
  type: 'oauth-client.registered',
  data: {
    clientId: 'c1',
    userId: null,
    organizationId: 'acme',
    settings,
    secretHash: 'secret-hash',
    source: 'managed',
    createdAt: '2031-01-01T00:00:00.000Z',
  },
}
const ref = { clientId: 'c1', userId: null, organizationId: 'acme' }

describe("an organization's OAuth client", () => {
  it('is registered by an owner or an admin, for the organization and not for them', () => {
    given([])
      .when(register(member('owner')))
      .then([registered])
    given([])
      .when(register(member('admin')))
      .then([registered])
    given([])
      .when(register({ kind: 'operator' }))
      .then([registered])
  })

  it('is refused to a plain member (403)', () => {
    given([])
      .when(register(member('member')))
      .thenThrows('access_denied', { status: 403 })
  })

  it('is refused to someone who is not a member of the organization (403)', () => {
    given([])
      .when(register(member('owner', 'globex')))
      .thenThrows('access_denied', { status: 403 })
    given([])
      .when(register({ kind: 'owner', userId: 'u1' }))
      .thenThrows('access_denied', { status: 403 })
  })

  it('may not skip consent unless an operator registers it', () => {
    given([])
      .when(register(member('owner'), { skipConsent: true }))
      .thenThrows('invalid_client_metadata')
  })

  it('is updated, rotated and deleted by an owner or admin of its organization', () => {
    given([registered])
      .when({ type: 'update-client', caller: member('admin'), changes: { name: 'CRM' }, policy })
      .then([{ type: 'oauth-client.updated', data: { ...ref, changes: { name: 'CRM' } } }])
    given([registered])
      .when({ type: 'rotate-client-secret', caller: member('owner'), secretHash: 'new' })
      .then([{ type: 'oauth-client.secret-rotated', data: { ...ref, secretHash: 'new' } }])
    given([registered])
      .when({ type: 'delete-client', caller: member('admin') })
      .then([{ type: 'oauth-client.deleted', data: ref }])
  })

  it('refuses a plain member of its organization every change (403)', () => {
    given([registered])
      .when({ type: 'update-client', caller: member('member'), changes: { name: 'x' }, policy })
      .thenThrows('access_denied', { status: 403 })
    given([registered])
      .when({ type: 'rotate-client-secret', caller: member('member'), secretHash: 'new' })
      .thenThrows('access_denied', { status: 403 })
    given([registered])
      .when({ type: 'delete-client', caller: member('member') })
      .thenThrows('access_denied', { status: 403 })
  })

  it("is unknown to another organization's owner and to its registrant as a person (404)", () => {
    given([registered])
      .when({ type: 'delete-client', caller: member('owner', 'globex') })
      .thenThrows('not_found', { status: 404 })
    given([registered])
      .when({ type: 'rotate-client-secret', caller: member('owner', 'globex'), secretHash: 'new' })
      .thenThrows('not_found')
    given([registered])
      .when({ type: 'update-client', caller: { kind: 'owner', userId: 'u1' }, changes: {}, policy })
      .thenThrows('not_found')
  })

  it("honours a custom role that grants the organization's OAuth clients", () => {
    const support: ClientCaller = {
      kind: 'member',
      userId: 'u2',
      organizationId: 'acme',
      role: 'support',
      customRoles: { support: { oauthClient: ['rotate'] } },
    }
    given([registered])
      .when({ type: 'rotate-client-secret', caller: support, secretHash: 'new' })
      .then([{ type: 'oauth-client.secret-rotated', data: { ...ref, secretHash: 'new' } }])
    given([registered]).when({ type: 'delete-client', caller: support }).thenThrows('access_denied')
  })
})
