import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import {
  type OidcSettings,
  type RegisterSsoProvider,
  type SsoManager,
  type SsoProviderEvent,
  ssoProviderDecider,
} from './sso-provider.js'
import { refuseUnlessSsoAllows } from './sso-sign-in-policy.js'

const { given } = specFor(ssoProviderDecider)
const NOW = '2026-11-28T12:00:00.000Z'
const OWNER: SsoManager = { kind: 'member', roles: ['owner'] }
const MEMBER: SsoManager = { kind: 'member', roles: ['member'] }
const ids = { providerId: 'acme-sso', organizationId: 'org-1' }
const oidc: OidcSettings = {
  issuer: 'https://idp.acme.test',
  clientId: 'client',
  pkce: true,
  discoveryEndpoint: 'https://idp.acme.test/.well-known/openid-configuration',
  authorizationEndpoint: 'https://idp.acme.test/auth',
  tokenEndpoint: 'https://idp.acme.test/token',
  userInfoEndpoint: null,
  jwksEndpoint: 'https://idp.acme.test/jwks',
  tokenEndpointAuthentication: 'client_secret_basic',
  scopes: null,
  mapping: null,
  overrideUserInfo: false,
}
const secrets = { clientSecret: 'shh', samlPrivateKey: null, spPrivateKey: null }
const shape = { issuer: oidc.issuer, domain: 'acme.test', oidcConfig: oidc, samlConfig: null }

const register = (overrides: Partial<RegisterSsoProvider> = {}): RegisterSsoProvider => ({
  type: 'register-sso-provider',
  ...ids,
  ...shape,
  userId: 'u-1',
  secrets,
  manager: OWNER,
  reserved: false,
  registeredByUser: 0,
  limit: 10,
  verification: { token: 'tok', expiresAt: '2026-12-05T12:00:00.000Z' },
  now: NOW,
  ...overrides,
})

const registered: SsoProviderEvent = {
  type: 'sso-provider.registered',
  data: { ...ids, ...shape, userId: 'u-1', registeredAt: NOW },
}
const requested: SsoProviderEvent = {
  type: 'sso-provider.domain-verification-requested',
  data: { ...ids, domain: 'acme.test', token: 'tok', expiresAt: '2026-12-05T12:00:00.000Z' },
}
const verified: SsoProviderEvent = {
  type: 'sso-provider.domain-verified',
  data: { ...ids, domain: 'acme.test', verifiedAt: NOW },
}
const identifier = '_better-auth-token-acme-sso'

describe('SSO provider', () => {
  it('registers with its secret in an event of its own and the verification token', () => {
    given([])
      .when(register())
      .then([
        registered,
        { type: 'sso-provider.secrets-set', data: { providerId: 'acme-sso', ...secrets } },
        requested,
      ])
  })

  it('lets only owners and admins register, within the limit, once per id', () => {
    given([])
      .when(register({ manager: MEMBER }))
      .thenThrows('NOT_ALLOWED_TO_REGISTER_SSO_PROVIDER')
    given([])
      .when(register({ manager: { kind: 'stranger' } }))
      .thenThrows('NOT_A_MEMBER_OF_THE_ORGANIZATION')
    given([])
      .when(register({ registeredByUser: 10 }))
      .thenThrows('SSO_PROVIDER_LIMIT_REACHED')
    given([])
      .when(register({ limit: 0 }))
      .thenThrows('SSO_PROVIDER_REGISTRATION_DISABLED')
    given([])
      .when(register({ reserved: true }))
      .thenThrows('SSO_PROVIDER_ID_RESERVED')
    given([registered]).when(register()).thenThrows('SSO_PROVIDER_ALREADY_EXISTS')
    given([])
      .when(register({ secrets: { ...secrets, clientSecret: null } }))
      .thenThrows('CLIENT_SECRET_REQUIRED')
  })

  it('admits only owners and admins as registrants, before anything about the provider is known', () => {
    given([])
      .when({ type: 'admit-registrant', manager: { kind: 'stranger' } })
      .thenThrows('NOT_A_MEMBER_OF_THE_ORGANIZATION')
    given([])
      .when({ type: 'admit-registrant', manager: MEMBER })
      .thenThrows('NOT_ALLOWED_TO_REGISTER_SSO_PROVIDER', { status: 403 })
    given([registered]).when({ type: 'admit-registrant', manager: OWNER }).then([])
    given([])
      .when({ type: 'admit-registrant', manager: { kind: 'member', roles: ['admin'] } })
      .then([])
  })

  it('verifies the domain only with the published TXT record, before the token expires', () => {
    const verify = (records: string[], now = NOW) =>
      ({
        type: 'verify-domain',
        records: { 'acme.test': records },
        identifier,
        manager: OWNER,
        now,
      }) as const
    given([registered, requested])
      .when(verify([`${identifier}=tok`]))
      .then([verified])
    given([registered, requested])
      .when(verify(['tok']))
      .then([verified])
    given([registered, requested])
      .when(verify(['other']))
      .thenThrows('DOMAIN_VERIFICATION_FAILED')
    given([registered, requested])
      .when(verify([`${identifier}=tok`], '2026-12-06T00:00:00.000Z'))
      .thenThrows('NO_PENDING_VERIFICATION')
    given([registered, requested, verified])
      .when(verify([`${identifier}=tok`]))
      .thenThrows('DOMAIN_VERIFIED')
    given([registered, requested])
      .when({ ...verify([]), manager: MEMBER })
      .thenThrows('NO_ACCESS_TO_SSO_PROVIDER')
  })

  it('requires SSO only for a verified domain, and a new domain drops the requirement', () => {
    const requireSso = {
      type: 'set-sso-requirement',
      required: true,
      domain: null,
      manager: OWNER,
      now: NOW,
    } as const
    given([registered, requested]).when(requireSso).thenThrows('SSO_REQUIREMENT_NEEDS_VERIFIED_DOMAIN')
    const set: SsoProviderEvent = {
      type: 'sso-provider.sso-requirement-set',
      data: { ...ids, domain: 'acme.test', required: true },
    }
    given([registered, requested, verified]).when(requireSso).then([set])
    const moved = ssoProviderDecider.decide(
      { type: 'update-sso-provider', domain: 'acme.example', manager: OWNER, now: NOW },
      [registered, requested, verified, set].reduce(
        ssoProviderDecider.evolve,
        ssoProviderDecider.initialState(),
      ),
    )
    expect(moved).toMatchObject([
      { type: 'sso-provider.updated', data: { domainVerified: false, fields: ['domain'] } },
    ])
    const after = [registered, verified, set, ...moved].reduce(
      ssoProviderDecider.evolve,
      ssoProviderDecider.initialState(),
    )
    expect(after).toMatchObject({ verifiedDomains: [], ssoRequiredDomains: [] })
  })

  it('refuses password sign-in only for addresses in a verified, SSO-required domain', () => {
    const provider = {
      providerId: 'acme-sso',
      domains: ['acme.test'],
      domainVerified: true,
      verifiedDomains: ['acme.test'],
      ssoRequiredDomains: ['acme.test'],
      protocols: { oidc: true, saml: false },
    }
    expect(() => refuseUnlessSsoAllows('ada@acme.test', [provider], '/sign-in/sso')).toThrow(/sign-in\/sso/)
    expect(() => refuseUnlessSsoAllows('ada@eu.acme.test', [provider], '/sign-in/sso')).toThrow()
    expect(() => refuseUnlessSsoAllows('ada@notacme.test', [provider], '/sign-in/sso')).not.toThrow()
    const unverified = { ...provider, domainVerified: false, verifiedDomains: [] }
    expect(() => refuseUnlessSsoAllows('ada@acme.test', [unverified], '/sign-in/sso')).not.toThrow()
  })
})
