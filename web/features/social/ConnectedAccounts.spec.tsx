import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { ConnectedAccounts } from './ConnectedAccounts.js'

const account = (id: string, providerId: string) => ({
  id,
  providerId,
  accountId: `${id}-sub`,
  createdAt: '',
})

describe('connected accounts', () => {
  it('disconnects a service when a password remains, and offers the others to connect', async () => {
    let accounts = [account('c1', 'credential'), account('a1', 'acme')]
    const api = fakeApi({
      'GET /providers': {
        body: [
          { id: 'acme', name: 'Acme' },
          { id: 'github', name: 'GitHub' },
        ],
      },
      'GET /list-accounts': () => ({ body: accounts }),
      'POST /unlink-account': () => {
        accounts = [account('c1', 'credential')]
        return { body: { status: true } }
      },
    })
    const { user } = renderWithProviders(<ConnectedAccounts />, { route: '/account/security' })
    const connect = await screen.findByRole('list', { name: 'Connect a service' })
    expect(
      within(connect)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Connect GitHub'])
    await user.click(screen.getByRole('button', { name: 'Disconnect Acme' }))
    expect((await screen.findByRole('status')).textContent).toContain('Acme was disconnected.')
    expect(api.to('POST', '/unlink-account')[0]?.body).toEqual({ accountId: 'a1' })
  })

  it('explains, and does not offer, disconnecting the only way to sign in', async () => {
    fakeApi({
      'GET /providers': { body: [{ id: 'acme', name: 'Acme' }] },
      'GET /list-accounts': { body: [account('a1', 'acme')] },
    })
    renderWithProviders(<ConnectedAccounts />, { route: '/account/security' })
    const button = (await screen.findByRole('button', { name: 'Disconnect Acme' })) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    const why = document.getElementById(button.getAttribute('aria-describedby') ?? '')
    expect(why?.textContent).toContain('only way to sign in')
  })

  it("shows a failed link's error in words", async () => {
    fakeApi({
      'GET /providers': { body: [{ id: 'acme', name: 'Acme' }] },
      'GET /list-accounts': { body: [account('c1', 'credential')] },
    })
    renderWithProviders(<ConnectedAccounts />, { route: '/account/security?error=email_does_not_match' })
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('different email address'))
  })
})
