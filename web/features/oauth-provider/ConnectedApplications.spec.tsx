import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { ConnectedApplications } from './ConnectedApplications.js'

const consent = (clientId: string, clientName: string | undefined, scopes: string[]) => ({
  id: clientId,
  clientId,
  userId: 'u1',
  ...(clientName ? { clientName } : {}),
  scopes,
  createdAt: '2030-01-02T03:04:05.000Z',
  updatedAt: '2030-01-02T03:04:05.000Z',
})

describe('connected applications', () => {
  it('lists each application with what it may do, in words', async () => {
    fakeApi({
      'GET /oauth2/get-consents': {
        body: [
          consent('c1', 'Notes', ['openid', 'email', 'custom:read']),
          consent('c2', undefined, ['openid']),
        ],
      },
    })
    renderWithProviders(<ConnectedApplications />)
    const list = await screen.findByRole('list', { name: 'Your connected applications' })
    expect(within(list).getByText('Notes')).toBeTruthy()
    const notes = screen.getByRole('list', { name: 'What Notes may do' })
    expect(
      within(notes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Know who you are', 'See your email address', 'custom:read'])
    // An application without a name is shown by its client id.
    expect(within(list).getByText('c2')).toBeTruthy()
    expect(within(list).getAllByText(/Connected since/)).toHaveLength(2)
  })

  it('asks before disconnecting, focusing Cancel; Cancel gives focus back and sends nothing', async () => {
    const api = fakeApi({ 'GET /oauth2/get-consents': { body: [consent('c1', 'Notes', ['openid'])] } })
    const { user } = renderWithProviders(<ConnectedApplications />)
    await user.click(await screen.findByRole('button', { name: 'Disconnect Notes' }))
    expect(screen.getByText('Disconnect Notes?')).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }))
    // A second Enter lands on Cancel, not on the destructive answer.
    await user.keyboard('{Enter}')
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Disconnect Notes' })),
    )
    expect(api.to('POST', '/oauth2/delete-consent')).toHaveLength(0)
  })

  it('disconnects: revokes the consent, drops the row and says so', async () => {
    let consents = [consent('c1', 'Notes', ['openid']), consent('c2', 'Calendar', ['openid'])]
    const api = fakeApi({
      'GET /oauth2/get-consents': () => ({ body: consents }),
      'POST /oauth2/delete-consent': (call) => {
        consents = consents.filter((c) => c.id !== (call.body as { id: string }).id)
        return { body: null }
      },
    })
    const { user } = renderWithProviders(<ConnectedApplications />)
    await user.click(await screen.findByRole('button', { name: 'Disconnect Notes' }))
    await user.click(screen.getByRole('button', { name: 'Disconnect' }))
    expect((await screen.findByRole('status')).textContent).toContain('Notes is disconnected')
    expect(api.to('POST', '/oauth2/delete-consent')[0]?.body).toEqual({ id: 'c1' })
    expect(screen.queryByText('Notes')).toBeNull()
    expect(screen.getByText('Calendar')).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Connected applications' }))
  })

  it('says why a disconnection failed, and is absent when Tessera is not an OpenID provider', async () => {
    fakeApi({
      'GET /oauth2/get-consents': { body: [consent('c1', 'Notes', ['openid'])] },
      'POST /oauth2/delete-consent': { status: 500, body: { code: 'INTERNAL', message: 'boom' } },
    })
    const { user, unmount } = renderWithProviders(<ConnectedApplications />)
    await user.click(await screen.findByRole('button', { name: 'Disconnect Notes' }))
    await user.click(screen.getByRole('button', { name: 'Disconnect' }))
    expect(await screen.findByRole('alert')).toBeTruthy()
    expect(screen.getByText('Notes')).toBeTruthy()
    unmount()
    fakeApi({})
    const { container } = renderWithProviders(<ConnectedApplications />)
    await waitFor(() => expect(container.textContent).toBe(''))
  })
})
