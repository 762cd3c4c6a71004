import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { ADA, fullOrganization, GRACE, renderOrganizations } from '../organizations/organizations.fixture.js'
import type { SsoProviderSummary } from './organization-sso.api.js'

/// "Single sign-on" in the organization's settings: its own providers only, each domain's state,
/// the TXT record to add while verification is pending, and "Check now".

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWx'

const provider = (overrides: Partial<SsoProviderSummary>): SsoProviderSummary => ({
  providerId: 'acme-sso',
  type: 'oidc',
  issuer: 'https://idp.acme.test',
  domain: 'acme.test',
  organizationId: 'org-1',
  domainVerified: false,
  ...overrides,
})

const serve = () => {
  let verified = false
  let checks = 0
  const api = fakeApi({
    'GET /organization/get-full-organization': { body: fullOrganization({ members: [ADA, GRACE] }) },
    'GET /sso/providers': () => ({
      body: {
        providers: [
          provider({ domainVerified: verified }),
          provider({ providerId: 'corp-sso', domain: 'corp.test', domainVerified: true, ssoRequired: true }),
          provider({ providerId: 'other-sso', domain: 'elsewhere.test', organizationId: 'org-2' }),
        ],
      },
    }),
    'POST /sso/request-domain-verification': { status: 201, body: { domainVerificationToken: TOKEN } },
    // The server answers 204 once found; the stand-in cannot send an empty 204, so it sends null.
    'POST /sso/verify-domain': () => {
      checks += 1
      if (checks === 1)
        return {
          status: 502,
          body: { code: 'DOMAIN_VERIFICATION_FAILED', message: 'Unable to verify domain ownership' },
        }
      verified = true
      return { status: 200, body: null }
    },
  })
  return api
}

describe("the organization's single sign-on", () => {
  it('lists its own providers, shows the TXT record for a pending domain, and checks it', async () => {
    const api = serve()
    const { user } = renderOrganizations('/account/organizations/org-1/settings')
    const list = await screen.findByRole('list', { name: 'Identity providers' })
    expect(list.textContent).toContain('corp.test')
    expect(list.textContent).toContain('SSO required for this domain')
    expect(list.textContent).not.toContain('elsewhere.test')
    const pending = within(list).getByText('acme.test').closest('.organization-sso-provider') as HTMLElement
    expect(within(pending).getByText('Not verified')).toBeTruthy()

    await user.click(within(pending).getByRole('button', { name: 'Show the DNS record to add' }))
    expect(await within(pending).findByText('_better-auth-token-acme-sso.acme.test')).toBeTruthy()
    expect(within(pending).getByText(`_better-auth-token-acme-sso=${TOKEN}`)).toBeTruthy()
    expect(api.to('POST', '/sso/request-domain-verification')[0]?.body).toEqual({ providerId: 'acme-sso' })

    await user.click(within(pending).getByRole('button', { name: 'Check now' }))
    expect((await within(pending).findByRole('alert')).textContent).toContain('The record was not found yet')
    await user.click(within(pending).getByRole('button', { name: 'Check now' }))
    await waitFor(() => expect(within(list).getAllByText('Verified')).toHaveLength(2))
    expect(within(list).queryByRole('button', { name: 'Check now' })).toBeNull()
  })

  it('shows the TXT record with the prefix the server is configured to check', async () => {
    fakeApi({
      'GET /portal-config': {
        body: {
          emailVerification: { sendOnSignUp: false, required: false },
          deleteUser: { enabled: true, immediate: false },
          changeEmail: { enabled: true },
          sso: { domainVerificationPrefix: 'acme-verify' },
        },
      },
      'GET /organization/get-full-organization': { body: fullOrganization({ members: [ADA, GRACE] }) },
      'GET /sso/providers': { body: { providers: [provider({})] } },
      'POST /sso/request-domain-verification': { status: 201, body: { domainVerificationToken: TOKEN } },
    })
    const { user } = renderOrganizations('/account/organizations/org-1/settings')
    const list = await screen.findByRole('list', { name: 'Identity providers' })
    await user.click(within(list).getByRole('button', { name: 'Show the DNS record to add' }))
    expect(await within(list).findByText('_acme-verify-acme-sso.acme.test')).toBeTruthy()
    expect(within(list).getByText(`_acme-verify-acme-sso=${TOKEN}`)).toBeTruthy()
  })

  it('says when the organization has no provider', async () => {
    fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization({ members: [ADA, GRACE] }) },
      'GET /sso/providers': { body: { providers: [] } },
    })
    renderOrganizations('/account/organizations/org-1/settings')
    expect(await screen.findByRole('heading', { name: 'Single sign-on' })).toBeTruthy()
    expect(await screen.findByText('No identity provider yet.')).toBeTruthy()
  })
})
