import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { matchingDomain, parseDomains } from './sso-domains.js'
import { type SsoManager, type SsoProviderEvent, ssoProviderDecider } from './sso-provider.js'
import { protocolFor, refuseUnlessSsoAllows } from './sso-sign-in-policy.js'

/// A provider with several domains (the plugin's comma-separated `domain`): each proved by its own
/// TXT record, all of them needed for the provider to count as verified, a kept domain staying
/// proved across an update, and SSO required per verified domain.

const { given } = specFor(ssoProviderDecider)
const NOW = '2026-11-28T12:00:00.000Z'
const OWNER: SsoManager = { kind: 'member', roles: ['owner'] }
const ids = { providerId: 'acme-sso', organizationId: 'org-1' }
const identifier = '_better-auth-token-acme-sso'
const RECORD = `${identifier}=tok`

const registered: SsoProviderEvent = {
  type: 'sso-provider.registered',
  data: {
    ...ids,
    issuer: 'https://idp.acme.test',
    domain: 'acme.test,acme.de',
    oidcConfig: null,
    samlConfig: { entryPoint: 'https://idp.acme.test/sso', cert: 'cert' },
    userId: 'u-1',
    registeredAt: NOW,
  },
}
const requested: SsoProviderEvent = {
  type: 'sso-provider.domain-verification-requested',
  data: { ...ids, domain: 'acme.test,acme.de', token: 'tok', expiresAt: '2026-12-05T12:00:00.000Z' },
}
const verifiedOf = (domain: string): SsoProviderEvent => ({
  type: 'sso-provider.domain-verified',
  data: { ...ids, domain, verifiedAt: NOW },
})
const verify = (records: Record<string, string[]>) =>
  ({ type: 'verify-domain', records, identifier, manager: OWNER, now: NOW }) as const
const requireSso = (domain: string | null, required = true) =>
  ({ type: 'set-sso-requirement', required, domain, manager: OWNER, now: NOW }) as const
const requirement = (domain: string, required = true): SsoProviderEvent => ({
  type: 'sso-provider.sso-requirement-set',
  data: { ...ids, domain, required },
})
const stateOf = (events: SsoProviderEvent[]) =>
  events.reduce(ssoProviderDecider.evolve, ssoProviderDecider.initialState())

describe('an SSO provider with several domains', () => {
  it('reads the list as the plugin does: trimmed, lowercased, once each; subdomains match', () => {
    expect(parseDomains(' Acme.test , acme.DE,acme.test,')).toEqual(['acme.test', 'acme.de'])
    expect(matchingDomain('eu.acme.de', ['acme.test', 'acme.de'])).toBe('acme.de')
    expect(matchingDomain('notacme.de', ['acme.test', 'acme.de'])).toBeNull()
  })

  it('proves every domain, each with its record, and names the first one missing', () => {
    given([registered, requested])
      .when(verify({ 'acme.test': [RECORD], 'acme.de': ['tok'] }))
      .then([verifiedOf('acme.test'), verifiedOf('acme.de')])
    given([registered, requested])
      .when(verify({ 'acme.test': [RECORD], 'acme.de': ['other'] }))
      .thenThrows('DOMAIN_VERIFICATION_FAILED', {
        message: 'Unable to verify domain ownership for acme.de. Try again later',
      })
  })

  it('keeps a kept domain proved across an update and asks only the new one again', () => {
    const before = [registered, requested, verifiedOf('acme.test'), verifiedOf('acme.de')]
    const [updated] = ssoProviderDecider.decide(
      { type: 'update-sso-provider', domain: 'acme.test,acme.fr', manager: OWNER, now: NOW },
      stateOf(before),
    )
    expect(updated).toMatchObject({ data: { domainVerified: false, verifiedDomains: ['acme.test'] } })
    const again: SsoProviderEvent = { ...requested, data: { ...requested.data, domain: 'acme.test,acme.fr' } }
    given([...before, updated as SsoProviderEvent, again])
      .when(verify({ 'acme.fr': [RECORD] }))
      .then([verifiedOf('acme.fr')])
  })

  it('requires SSO per verified domain, or for all of them when every one is verified', () => {
    const oneVerified = [registered, requested, verifiedOf('acme.test')]
    given(oneVerified)
      .when(requireSso('acme.test'))
      .then([requirement('acme.test')])
    given(oneVerified).when(requireSso('acme.de')).thenThrows('SSO_REQUIREMENT_NEEDS_VERIFIED_DOMAIN')
    given(oneVerified).when(requireSso(null)).thenThrows('SSO_REQUIREMENT_NEEDS_VERIFIED_DOMAIN')
    given(oneVerified).when(requireSso('acme.fr')).thenThrows('SSO_DOMAIN_NOT_FOUND')
    given([...oneVerified, verifiedOf('acme.de'), requirement('acme.test')])
      .when(requireSso(null))
      .then([requirement('acme.de')])
    given([...oneVerified, requirement('acme.test')])
      .when(requireSso('acme.test', false))
      .then([requirement('acme.test', false)])
  })

  it('routes only a fully verified provider, and refuses passwords only in required domains', () => {
    const provider = {
      providerId: 'acme-sso',
      domains: ['acme.test', 'acme.de'],
      domainVerified: false,
      verifiedDomains: ['acme.test'],
      ssoRequiredDomains: ['acme.test'],
      protocols: { oidc: false, saml: true },
    }
    const request = { providerType: undefined, verificationRequired: true }
    expect(() => protocolFor(provider, request)).toThrow('Provider domain has not been verified')
    expect(protocolFor({ ...provider, domainVerified: true }, request)).toBe('saml')
    expect(() => refuseUnlessSsoAllows('ada@eu.acme.test', [provider], '/sign-in/sso')).toThrow()
    expect(() => refuseUnlessSsoAllows('ada@acme.de', [provider], '/sign-in/sso')).not.toThrow()
  })
})
