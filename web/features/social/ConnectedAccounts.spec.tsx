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

describe('removing the password', () => {
  const withService = () => [account('c1', 'credential'), account('a1', 'acme')]

  it('removes it after a confirmation when a connected service remains to sign in with', async () => {
    let accounts = withService()
    const api = fakeApi({
      'GET /providers': { body: [{ id: 'acme', name: 'Acme' }] },
      'GET /list-accounts': () => ({ body: accounts }),
      'POST /unlink-account': () => {
        accounts = [account('a1', 'acme')]
        return { body: { status: true } }
      },
    })
    const { user } = renderWithProviders(<ConnectedAccounts />, { route: '/account/security' })
    await user.click(await screen.findByRole('button', { name: 'Remove password' }))
    expect(api.to('POST', '/unlink-account')).toHaveLength(0)
    expect(screen.getByText(/From now on you sign in with Acme only/)).toBeTruthy()
    const confirm = screen.getByRole('button', { name: 'Remove password' })
    expect(document.activeElement).toBe(confirm)
    await user.click(confirm)

    expect((await screen.findByRole('status')).textContent).toContain('Your password is removed.')
    expect(api.to('POST', '/unlink-account')[0]?.body).toEqual({ accountId: 'c1', providerId: 'credential' })
    expect(screen.queryByRole('button', { name: 'Remove password' })).toBeNull()
    // Acme is now the only way in: it can no longer be disconnected.
    expect((screen.getByRole('button', { name: 'Disconnect Acme' }) as HTMLButtonElement).disabled).toBe(true)
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Connected accounts' }))
  })

  it('cancels without asking the server', async () => {
    const api = fakeApi({
      'GET /providers': { body: [{ id: 'acme', name: 'Acme' }] },
      'GET /list-accounts': { body: withService() },
    })
    const { user } = renderWithProviders(<ConnectedAccounts />, { route: '/account/security' })
    await user.click(await screen.findByRole('button', { name: 'Remove password' }))
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByText(/Remove your password\?/)).toBeNull()
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove password' })),
    )
    expect(api.to('POST', '/unlink-account')).toHaveLength(0)
  })

  it('does not offer it when the password is the only way in', async () => {
    fakeApi({
      'GET /providers': { body: [{ id: 'acme', name: 'Acme' }] },
      'GET /list-accounts': { body: [account('c1', 'credential')] },
    })
    renderWithProviders(<ConnectedAccounts />, { route: '/account/security' })
    expect(await screen.findByText('Kept until you connect a service')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Remove password' })).toBeNull()
  })

  it('says in words why the server refused the last way in (the service went in another tab)', async () => {
    fakeApi({
      'GET /providers': { body: [{ id: 'acme', name: 'Acme' }] },
      'GET /list-accounts': { body: withService() },
      'POST /unlink-account': {
        status: 400,
        body: { code: 'FAILED_TO_UNLINK_LAST_ACCOUNT', message: "You can't unlink your last account" },
      },
    })
    const { user } = renderWithProviders(<ConnectedAccounts />, { route: '/account/security' })
    await user.click(await screen.findByRole('button', { name: 'Remove password' }))
    await user.click(screen.getByRole('button', { name: 'Remove password' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This is your only way left to sign in, so it stays. Connect another service or set a password first.',
    )
  })
})
