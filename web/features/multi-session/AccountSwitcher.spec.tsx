import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { App } from '../../app/App.js'
import { fakeApi } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { renderWithProviders } from '../../test/render.js'
import type { SessionAnswer } from '../session/session.api.js'

const ada = signedInAs({ username: 'ada_l', displayUsername: 'Ada_L' })
const grace: SessionAnswer = {
  session: { ...ada.session, id: 'session-2', userId: 'user-2', token: 'handle-2' },
  user: {
    ...ada.user,
    id: 'user-2',
    name: 'Grace Hopper',
    email: 'grace@example.com',
    username: null,
    displayUsername: null,
  },
}

/** A device with Ada and Grace signed in; Ada active. */
const device = (start: SessionAnswer[] = [ada, grace]) => {
  let active: SessionAnswer | null = ada
  let accounts: SessionAnswer[] = start
  const api = fakeApi({
    'POST /sign-in/email': () => {
      accounts = [...accounts, grace]
      active = grace
      return { body: { redirect: false, token: 't', user: grace.user } }
    },
    'GET /get-session': () => ({ body: active }),
    'GET /multi-session/list-device-sessions': () => ({ body: accounts }),
    'POST /multi-session/set-active': (call) => {
      const token = (call.body as { sessionToken: string }).sessionToken
      active = accounts.find((account) => account.session.token === token) ?? active
      return { body: active }
    },
    'POST /multi-session/revoke': (call) => {
      const token = (call.body as { sessionToken: string }).sessionToken
      accounts = accounts.filter((account) => account.session.token !== token)
      if (active?.session.token === token) active = accounts[0] ?? null
      return { body: { status: true } }
    },
  })
  return api
}

const openAccount = () => renderWithProviders(<App />, { route: '/account', path: '*' })
const trigger = () => screen.getByRole('button', { name: /^Accounts, signed in as/ })

describe('the account switcher in the header', () => {
  it('shows who is signed in, with their username as typed', async () => {
    device()
    openAccount()
    await screen.findByRole('heading', { name: 'Profile', level: 1 })
    const button = trigger()
    expect(button.textContent).toContain('Ada Lovelace')
    expect(button.textContent).toContain('@Ada_L')
    expect(button.getAttribute('aria-haspopup')).toBe('menu')
    expect(button.getAttribute('aria-expanded')).toBe('false')
  })

  it('is a menu button: arrows open and move, Escape closes and gives focus back', async () => {
    device()
    const { user } = openAccount()
    await screen.findByRole('heading', { name: 'Profile', level: 1 })
    trigger().focus()
    await user.keyboard('{ArrowDown}')
    const menu = await screen.findByRole('menu', { name: 'Accounts' })
    expect(trigger().getAttribute('aria-expanded')).toBe('true')
    const accounts = await within(menu).findAllByRole('menuitemradio')
    await waitFor(() => expect(within(menu).getAllByRole('menuitemradio')).toHaveLength(2))
    expect(document.activeElement).toBe(within(menu).getAllByRole('menuitemradio')[0])
    expect(accounts[0]?.getAttribute('aria-checked')).toBe('true')
    await user.keyboard('{ArrowDown}')
    expect(document.activeElement?.textContent).toContain('Grace Hopper')
    await user.keyboard('{End}')
    expect(document.activeElement?.textContent).toBe('Sign out of Grace Hopper')
    await user.keyboard('{ArrowDown}')
    expect(document.activeElement?.textContent).toContain('Ada Lovelace')
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(trigger())
  })

  it('switches to another account: the page starts afresh with that person', async () => {
    const api = device()
    const { user } = openAccount()
    await screen.findByRole('heading', { name: 'Profile', level: 1 })
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Ada Lovelace')
    await user.click(trigger())
    await user.click(await screen.findByRole('menuitemradio', { name: /Grace Hopper/ }))
    await waitFor(() => expect(trigger().textContent).toContain('Grace Hopper'))
    expect(api.to('POST', '/multi-session/set-active')[0]?.body).toEqual({ sessionToken: 'handle-2' })
    await waitFor(() =>
      expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Grace Hopper'),
    )
    expect(screen.getByText('Switched to Grace Hopper.')).toBeTruthy()
  })

  it('says on the header button that it signs out of every account on the device', async () => {
    device()
    openAccount()
    expect(await screen.findByRole('button', { name: 'Sign out of all accounts' })).toBeTruthy()
  })

  it('signs out of one account and keeps the other', async () => {
    const api = device()
    const { user } = openAccount()
    await screen.findByRole('heading', { name: 'Profile', level: 1 })
    await user.click(trigger())
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out of Grace Hopper' }))
    await screen.findByText('Signed out of Grace Hopper.')
    expect(api.to('POST', '/multi-session/revoke')[0]?.body).toEqual({ sessionToken: 'handle-2' })
    await user.click(trigger())
    const menu = await screen.findByRole('menu')
    await waitFor(() => expect(within(menu).getAllByRole('menuitemradio')).toHaveLength(1))
    // With one account left, signing out of it is the header's own Sign out.
    expect(within(menu).queryByRole('menuitem', { name: /Sign out of/ })).toBeNull()
  })

  it('says when the account picked is no longer signed in on this device', async () => {
    device()
    fakeApi({
      'GET /get-session': { body: ada },
      'GET /multi-session/list-device-sessions': { body: [ada, grace] },
      'POST /multi-session/set-active': {
        status: 401,
        body: { code: 'INVALID_SESSION_TOKEN', message: 'Invalid session token' },
      },
    })
    const { user } = openAccount()
    await screen.findByRole('heading', { name: 'Profile', level: 1 })
    await user.click(trigger())
    await user.click(await screen.findByRole('menuitemradio', { name: /Grace Hopper/ }))
    expect((await screen.findByRole('alert')).textContent).toContain('no longer signed in on this device')
    // Still signed in as Ada: the 401 was about Grace's session.
    expect(trigger().textContent).toContain('Ada Lovelace')
  })

  it('adds another account: sign-in, then the new one is active and both are listed', async () => {
    device([ada])
    const { user } = openAccount()
    await screen.findByRole('heading', { name: 'Profile', level: 1 })
    await user.click(trigger())
    await user.click(await screen.findByRole('menuitem', { name: 'Add another account' }))
    expect(await screen.findByRole('heading', { name: 'Add another account', level: 1 })).toBeTruthy()
    await user.type(screen.getByLabelText('Email or username'), 'grace@example.com')
    await user.type(screen.getByLabelText('Password'), 'secret secret')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    await screen.findByRole('heading', { name: 'Profile', level: 1 })
    // Nothing cached about Ada is shown for Grace.
    await waitFor(() => expect(trigger().textContent).toContain('Grace Hopper'))
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Grace Hopper')
    await user.click(trigger())
    const menu = await screen.findByRole('menu')
    await waitFor(() => expect(within(menu).getAllByRole('menuitemradio')).toHaveLength(2))
    expect(within(menu).getByRole('menuitemradio', { checked: true }).textContent).toContain('Grace Hopper')
  })

  it('without the device list (an older server) shows just the account signed in', async () => {
    fakeApi({ 'GET /get-session': { body: ada } })
    const { user } = openAccount()
    await screen.findByRole('heading', { name: 'Profile', level: 1 })
    await user.click(trigger())
    const menu = await screen.findByRole('menu')
    expect(within(menu).getAllByRole('menuitemradio')).toHaveLength(1)
    expect(within(menu).getByRole('menuitem', { name: 'Add another account' })).toBeTruthy()
  })
})
