import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { OAuthClientsPage } from './OAuthClientsPage.js'

const client = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  client_id: id,
  client_name: name,
  redirect_uris: ['https://notes.example/callback'],
  token_endpoint_auth_method: 'client_secret_basic',
  grant_types: ['authorization_code', 'refresh_token'],
  public: false,
  ...extra,
})

describe('the console’s OAuth clients', { timeout: 30_000 }, () => {
  it('registers a client and shows its secret once, selected for copying', async () => {
    let clients = [client('c1', 'Notes')]
    const api = fakeApi({
      'GET /oauth2/get-clients': () => ({ body: clients }),
      'POST /admin/oauth2/create-client': () => {
        clients = [...clients, client('c2', 'Calendar')]
        return { status: 201, body: { ...client('c2', 'Calendar'), client_secret: 's3cret' } }
      },
    })
    const { user } = renderWithProviders(<OAuthClientsPage />)
    expect(await screen.findByText('Notes')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Register an application' }))
    const form = screen.getByRole('form', { name: 'Register an application' })
    await user.type(within(form).getByLabelText(/Name/), 'Calendar')
    await user.type(
      within(form).getByLabelText('Redirect URIs'),
      'https://cal.example/cb{Enter}{Enter}http://localhost:3000/cb',
    )
    await user.click(within(form).getByRole('button', { name: 'Register' }))
    const secret = (await screen.findByLabelText('Client secret')) as HTMLInputElement
    expect(secret.value).toBe('s3cret')
    expect(document.activeElement).toBe(secret)
    expect(api.to('POST', '/admin/oauth2/create-client')[0]?.body).toMatchObject({
      client_name: 'Calendar',
      redirect_uris: ['https://cal.example/cb', 'http://localhost:3000/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      skip_consent: false,
    })
    await user.click(screen.getByRole('button', { name: 'I have saved it' }))
    expect(screen.queryByText('s3cret')).toBeNull()
    expect(screen.queryByLabelText('Client secret')).toBeNull()
    expect(within(screen.getByRole('list', { name: 'OAuth clients' })).getByText('Calendar')).toBeTruthy()
  })

  it('checks the form before sending, and shows the server’s reason for a refusal', async () => {
    const api = fakeApi({
      'GET /oauth2/get-clients': { body: [] },
      'POST /admin/oauth2/create-client': {
        status: 400,
        body: {
          error: 'invalid_redirect_uri',
          error_description: 'redirect uri http://a.example/cb must use https',
        },
      },
    })
    const { user } = renderWithProviders(<OAuthClientsPage />)
    await user.click(await screen.findByRole('button', { name: 'Register an application' }))
    const form = screen.getByRole('form', { name: 'Register an application' })
    await user.click(within(form).getByRole('button', { name: 'Register' }))
    expect(await within(form).findByText('Add at least one redirect URI.')).toBeTruthy()
    expect(api.to('POST', '/admin/oauth2/create-client')).toHaveLength(0)
    await user.type(within(form).getByLabelText(/Name/), 'Old app')
    await user.type(within(form).getByLabelText('Redirect URIs'), 'http://a.example/cb')
    await user.click(within(form).getByRole('button', { name: 'Register' }))
    expect((await within(form).findByRole('alert')).textContent).toContain('must use https')
  })

  it('edits a client, replaces its secret, and deletes it after a confirmation that focuses Cancel', async () => {
    let clients = [client('c1', 'Notes')]
    const api = fakeApi({
      'GET /oauth2/get-clients': () => ({ body: clients }),
      'POST /oauth2/update-client': () => {
        clients = [client('c1', 'Notes 2', { skip_consent: true })]
        return { body: clients[0] }
      },
      'POST /oauth2/client/rotate-secret': { body: { ...client('c1', 'Notes 2'), client_secret: 'n3w' } },
      'POST /oauth2/delete-client': () => {
        clients = []
        return { body: null }
      },
    })
    const { user } = renderWithProviders(<OAuthClientsPage />)
    await user.click(await screen.findByRole('button', { name: 'Edit Notes' }))
    const form = screen.getByRole('form', { name: 'Edit Notes' })
    expect(within(form).queryByLabelText('Kind')).toBeNull()
    await user.type(within(form).getByLabelText(/Name/), ' 2')
    await user.click(within(form).getByLabelText('Trusted first-party application'))
    await user.click(within(form).getByRole('button', { name: 'Save' }))
    expect((await screen.findByRole('status')).textContent).toContain('Notes 2 is saved')
    expect(api.to('POST', '/oauth2/update-client')[0]?.body).toEqual({
      client_id: 'c1',
      update: {
        client_name: 'Notes 2',
        redirect_uris: ['https://notes.example/callback'],
        skip_consent: true,
      },
    })
    expect(screen.getByText(/trusted, skips consent/)).toBeTruthy()

    await user.click(screen.getByRole('button', { name: 'New secret for Notes 2' }))
    expect(((await screen.findByLabelText('Client secret')) as HTMLInputElement).value).toBe('n3w')

    await user.click(screen.getByRole('button', { name: 'Delete Notes 2' }))
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }))
    await user.click(screen.getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(screen.getByText('No application is registered yet.')).toBeTruthy())
    expect(api.to('POST', '/oauth2/delete-client')[0]?.body).toEqual({ client_id: 'c1' })
  })
})
