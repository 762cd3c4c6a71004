import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { ADA, fullOrganization, GRACE, renderOrganizations } from '../organizations/organizations.fixture.js'

/// The organization's applications in its settings: a role holding `oauthClient` registers one for
/// the organization (its secret shown once, never "trusted"), replaces its secret and deletes it; a
/// role without the permission sees no section and nothing is asked of the server.

const client = (id: string, name: string) => ({
  client_id: id,
  client_name: name,
  redirect_uris: ['https://crm.acme.example/cb'],
  token_endpoint_auth_method: 'client_secret_basic',
  grant_types: ['authorization_code', 'refresh_token'],
  public: false,
  reference_id: 'org-1',
})

const serve = (permissions: Record<string, string[]>, providing = true) => {
  let clients = [client('c1', 'Acme CRM')]
  return fakeApi({
    'GET /portal-config': { body: { oauthProvider: { enabled: providing } } },
    'GET /organization/get-full-organization': { body: fullOrganization({ members: [ADA, GRACE] }) },
    'GET /organization/viewer': {
      body: { role: 'owner', permissions, features: { teams: true, customRoles: false } },
    },
    'GET /oauth2/get-clients': () => ({ body: clients }),
    'POST /oauth2/create-client': () => {
      clients = [...clients, client('c2', 'Acme Wiki')]
      return { status: 201, body: { ...client('c2', 'Acme Wiki'), client_secret: 'first-secret' } }
    },
    'POST /oauth2/client/rotate-secret': {
      body: { ...client('c1', 'Acme CRM'), client_secret: 'new-secret' },
    },
    'POST /oauth2/delete-client': () => {
      clients = clients.filter((c) => c.client_id !== 'c1')
      return { body: null }
    },
  })
}

const OWNER = {
  organization: ['update', 'delete'],
  oauthClient: ['create', 'read', 'update', 'delete', 'rotate'],
  ac: ['read'],
}

describe('the organization’s applications', { timeout: 30_000 }, () => {
  it('registers one for the organization with its secret shown once, re-keys and deletes one', async () => {
    const api = serve(OWNER)
    const { user } = renderOrganizations('/account/organizations/org-1/settings')
    const section = await screen.findByRole('region', { name: 'Applications' })
    expect(await within(section).findByText('Acme CRM')).toBeTruthy()
    expect(api.to('GET', '/oauth2/get-clients')[0]?.query.get('reference_id')).toBe('org-1')

    await user.click(within(section).getByRole('button', { name: 'Register an application' }))
    const form = within(section).getByRole('form', { name: 'Register an application' })
    expect(within(form).queryByLabelText('Trusted first-party application')).toBeNull()
    await user.type(within(form).getByLabelText(/Name/), 'Acme Wiki')
    await user.type(within(form).getByLabelText('Redirect URIs'), 'https://wiki.acme.example/cb')
    await user.click(within(form).getByRole('button', { name: 'Register' }))
    const secret = (await screen.findByLabelText('Client secret')) as HTMLInputElement
    expect(secret.value).toBe('first-secret')
    const sent = api.to('POST', '/oauth2/create-client')[0]?.body as Record<string, unknown>
    expect(sent).toMatchObject({
      client_name: 'Acme Wiki',
      redirect_uris: ['https://wiki.acme.example/cb'],
      reference_id: 'org-1',
    })
    expect(sent).not.toHaveProperty('skip_consent')
    await user.click(screen.getByRole('button', { name: 'I have saved it' }))
    expect(screen.queryByLabelText('Client secret')).toBeNull()

    await user.click(within(section).getByRole('button', { name: 'New secret for Acme CRM' }))
    expect(((await screen.findByLabelText('Client secret')) as HTMLInputElement).value).toBe('new-secret')
    expect(api.to('POST', '/oauth2/client/rotate-secret')[0]?.body).toEqual({ client_id: 'c1' })
    await user.click(screen.getByRole('button', { name: 'I have saved it' }))

    await user.click(within(section).getByRole('button', { name: 'Delete Acme CRM' }))
    await user.click(within(section).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(within(section).queryByText('Acme CRM')).toBeNull())
    expect(api.to('POST', '/oauth2/delete-client')[0]?.body).toEqual({ client_id: 'c1' })
  })

  it('is not shown to a role without the oauthClient permission', async () => {
    const api = serve({ organization: ['update'], ac: ['read'] })
    renderOrganizations('/account/organizations/org-1/settings')
    expect(await screen.findByRole('heading', { name: 'Details' })).toBeTruthy()
    await waitFor(() => expect(api.to('GET', '/organization/viewer')).not.toEqual([]))
    expect(screen.queryByRole('region', { name: 'Applications' })).toBeNull()
    expect(api.to('GET', '/oauth2/get-clients')).toEqual([])
  })

  it('is not shown where Tessera is no OpenID provider, even to an owner', async () => {
    const api = serve(OWNER, false)
    renderOrganizations('/account/organizations/org-1/settings')
    expect(await screen.findByRole('heading', { name: 'Details' })).toBeTruthy()
    await waitFor(() => expect(api.to('GET', '/portal-config')).not.toEqual([]))
    await waitFor(() => expect(api.to('GET', '/organization/viewer')).not.toEqual([]))
    expect(screen.queryByRole('region', { name: 'Applications' })).toBeNull()
    expect(api.to('GET', '/oauth2/get-clients')).toEqual([])
  })
})
