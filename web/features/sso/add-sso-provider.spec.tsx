import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { ADA, fullOrganization, GRACE, renderOrganizations } from '../organizations/organizations.fixture.js'
import type { SsoProviderSummary } from './organization-sso.api.js'

/// "Add an identity provider" in the organization's settings: the form checks what it can, sends
/// the plugin's `/sso/register` body (OIDC, SAML by metadata XML, SAML by hand), puts refusals in
/// words under their field, and afterwards shows what the IdP needs and the DNS records to add.

const METADATA = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.acme.test/saml">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.acme.test/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`

const serve = (register: (body: Record<string, unknown>) => { status?: number; body: unknown }) => {
  let providers: SsoProviderSummary[] = []
  const api = fakeApi({
    'GET /organization/get-full-organization': { body: fullOrganization({ members: [ADA, GRACE] }) },
    'GET /sso/providers': () => ({ body: { providers } }),
    'POST /sso/register': (call) => {
      const body = call.body as Record<string, unknown>
      const answer = register(body)
      if ((answer.status ?? 200) === 200)
        providers = [
          {
            providerId: String(body.providerId),
            type: body.samlConfig ? 'saml' : 'oidc',
            issuer: String(body.issuer),
            domain: String(body.domain),
            organizationId: 'org-1',
            domainVerified: false,
            verifiedDomains: [],
            ssoRequiredDomains: [],
          },
        ]
      return answer
    },
  })
  return api
}

const open = async () => {
  const { user } = renderOrganizations('/account/organizations/org-1/settings')
  await user.click(await screen.findByRole('button', { name: 'Add an identity provider' }))
  const form = screen.getByRole('form', { name: 'Add an identity provider' })
  return { user, form }
}

describe('adding an identity provider', { timeout: 30_000 }, () => {
  it('registers an OIDC provider for two domains and shows the callback URL and the TXT records', async () => {
    const api = serve((body) => ({
      body: { ...body, redirectURI: 'x', samlConfig: null, domainVerificationToken: 'TOKEN123' },
    }))
    const { user, form } = await open()
    await user.click(within(form).getByRole('button', { name: 'Add provider' }))
    expect(within(form).getAllByText(/Enter a short name for the provider\./).length).toBeGreaterThan(0)
    expect(api.to('POST', '/sso/register')).toHaveLength(0)

    await user.type(within(form).getByLabelText('Provider name'), 'acme-okta')
    await user.type(within(form).getByLabelText('Email domains'), 'Acme.test, acme.de')
    await user.type(within(form).getByLabelText('Issuer'), 'https://idp.acme.test')
    await user.type(within(form).getByLabelText('Client ID'), 'client-1')
    await user.type(within(form).getByLabelText('Client secret'), 'secret-1')
    await user.click(within(form).getByRole('button', { name: 'Add provider' }))

    await waitFor(() => expect(api.to('POST', '/sso/register')).toHaveLength(1))
    expect(api.to('POST', '/sso/register')[0]?.body).toEqual({
      providerId: 'acme-okta',
      domain: 'acme.test,acme.de',
      organizationId: 'org-1',
      issuer: 'https://idp.acme.test',
      oidcConfig: { clientId: 'client-1', clientSecret: 'secret-1' },
    })
    const added = await screen.findByText('acme-okta is added.')
    const notice = added.closest('.notice') as HTMLElement
    expect(notice.textContent).toContain(`${window.location.origin}/api/auth/sso/callback/acme-okta`)
    expect(within(notice).getByText('_better-auth-token-acme-okta.acme.test')).toBeTruthy()
    expect(within(notice).getByText('_better-auth-token-acme-okta.acme.de')).toBeTruthy()
    expect(within(notice).getAllByText('_better-auth-token-acme-okta=TOKEN123')).toHaveLength(2)
    const list = await screen.findByRole('list', { name: 'Domains of acme-okta' })
    expect(within(list).getAllByText('Not verified')).toHaveLength(2)
  })

  it('reads a SAML provider from its metadata XML and shows the SP metadata and ACS URLs', async () => {
    const api = serve((body) => ({ body: { ...body, redirectURI: 'x' } }))
    const { user, form } = await open()
    await user.selectOptions(within(form).getByLabelText('Protocol'), 'saml')
    await user.type(within(form).getByLabelText('Provider name'), 'acme-saml')
    await user.type(within(form).getByLabelText('Email domains'), 'acme.test')
    await user.click(within(form).getByLabelText('IdP metadata XML'))
    await user.paste('<not-metadata/>')
    await user.click(within(form).getByRole('button', { name: 'Add provider' }))
    expect(within(form).getAllByText(/names no entity ID and sign-in address/).length).toBeGreaterThan(0)
    await user.clear(within(form).getByLabelText('IdP metadata XML'))
    await user.click(within(form).getByLabelText('IdP metadata XML'))
    await user.paste(METADATA)
    await user.click(within(form).getByRole('button', { name: 'Add provider' }))

    await waitFor(() => expect(api.to('POST', '/sso/register')).toHaveLength(1))
    const origin = window.location.origin
    expect(api.to('POST', '/sso/register')[0]?.body).toMatchObject({
      issuer: `${origin}/api/auth/sso/saml2/sp/metadata?providerId=acme-saml`,
      samlConfig: {
        entryPoint: 'https://idp.acme.test/sso',
        idpMetadata: { metadata: METADATA },
        wantAssertionsSigned: true,
      },
    })
    const notice = (await screen.findByText('acme-saml is added.')).closest('.notice') as HTMLElement
    expect(notice.textContent).toContain(`${origin}/api/auth/sso/saml2/sp/acs/acme-saml`)
    expect(notice.textContent).toContain(`${origin}/api/auth/sso/saml2/sp/metadata?providerId=acme-saml`)
  })

  it('puts the server’s refusals in words, under the field they concern', async () => {
    serve(() => ({
      status: 400,
      body: { code: 'DISCOVERY_FAILED', message: 'OIDC discovery failed for the issuer: 404' },
    }))
    const { user, form } = await open()
    await user.type(within(form).getByLabelText('Provider name'), 'acme-okta')
    await user.type(within(form).getByLabelText('Email domains'), 'acme.test')
    await user.type(within(form).getByLabelText('Issuer'), 'https://idp.acme.test')
    await user.type(within(form).getByLabelText('Client ID'), 'client-1')
    await user.type(within(form).getByLabelText('Client secret'), 'secret-1')
    await user.click(within(form).getByRole('button', { name: 'Add provider' }))
    const issuer = within(form).getByLabelText('Issuer')
    await waitFor(() => expect(issuer.getAttribute('aria-invalid')).toBe('true'))
    expect(within(form).getAllByText(/discovery document could not be read/).length).toBeGreaterThan(0)
  })

  it('requires SSO for one verified domain of a provider', async () => {
    let required: string[] = []
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization({ members: [ADA, GRACE] }) },
      'GET /sso/providers': () => ({
        body: {
          providers: [
            {
              providerId: 'acme-sso',
              type: 'saml',
              issuer: 'https://sp.test',
              domain: 'acme.test,acme.de',
              organizationId: 'org-1',
              domainVerified: true,
              verifiedDomains: ['acme.test', 'acme.de'],
              ssoRequiredDomains: required,
            },
          ],
        },
      }),
      'POST /sso/set-sso-requirement': (call) => {
        required = [(call.body as { domain: string }).domain]
        return { body: {} }
      },
    })
    const { user } = renderOrganizations('/account/organizations/org-1/settings')
    await user.click(await screen.findByRole('button', { name: 'Require SSO for acme.de' }))
    expect(api.to('POST', '/sso/set-sso-requirement')[0]?.body).toEqual({
      providerId: 'acme-sso',
      domain: 'acme.de',
      required: true,
    })
    expect(await screen.findByRole('button', { name: 'Stop requiring SSO for acme.de' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Require SSO for acme.test' })).toBeTruthy()
  })
})
