import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { SignedIn } from '../features/session/session.api.js'
import { fakeApi } from '../test/fake-api.js'
import { signedInAs } from '../test/fixtures.js'
import { renderWithProviders } from '../test/render.js'
import { App } from './App.js'

const openApp = (route: string) => renderWithProviders(<App />, { route, path: '*' })

describe('routing and the session', () => {
  it('sends a signed-out person from / to sign-in', async () => {
    fakeApi({ 'GET /get-session': { body: null } })
    openApp('/')
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy()
  })

  it('sends a signed-in person from / to their account', async () => {
    fakeApi({ 'GET /get-session': { body: signedInAs() } })
    openApp('/')
    expect(await screen.findByRole('heading', { name: 'Profile', level: 1 })).toBeTruthy()
    const nav = screen.getByRole('navigation', { name: 'Account' })
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Profile', 'Email', 'Password', 'Security', 'Activity', 'API keys', 'Organizations'])
    expect(within(nav).getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('page')
    expect(document.title).toBe('Profile · Tessera')
  })

  it('guards protected pages and comes back to them after signing in', async () => {
    let session: SignedIn | null = null
    fakeApi({
      'GET /get-session': () => ({ body: session }),
      'POST /sign-in/email': () => {
        session = signedInAs()
        return { body: { redirect: false, token: 't', user: session.user } }
      },
      'GET /list-sessions': () => ({ body: session ? [session.session] : [] }),
    })
    const { user } = openApp('/security')
    await user.type(await screen.findByLabelText('Email or username'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password'), 'correct horse')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('heading', { name: 'Security' })).toBeTruthy()
    expect(await screen.findByText('This device')).toBeTruthy()
  })

  it('signs out: forgets the person and shows sign-in with a notice', async () => {
    let session: SignedIn | null = signedInAs()
    const api = fakeApi({
      'GET /get-session': () => ({ body: session }),
      'POST /sign-out': () => {
        session = null
        return { body: { success: true } }
      },
      'GET /activity': { body: { items: [], nextCursor: null } },
    })
    const { user } = openApp('/activity')
    await user.click(await screen.findByRole('button', { name: 'Sign out' }))
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe('You are signed out.')
    expect(api.to('POST', '/sign-out')).toHaveLength(1)
    expect(screen.queryByText('Ada Lovelace')).toBeNull()
  })

  it('notices a session revoked elsewhere: a 401 re-checks the session and leads to sign-in', async () => {
    let session: SignedIn | null = signedInAs()
    fakeApi({
      'GET /get-session': () => ({ body: session }),
      'GET /list-sessions': () => {
        session = null
        return { status: 401, body: { code: 'UNAUTHORIZED', message: '' } }
      },
    })
    openApp('/security')
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy())
  })

  it('the deletion link opened signed out: sign in, come back to confirm, and the account is gone', async () => {
    let session: SignedIn | null = null
    const api = fakeApi({
      'GET /get-session': () => ({ body: session }),
      'POST /sign-in/email': () => {
        session = signedInAs()
        return { body: { redirect: false, token: 't', user: session.user } }
      },
      'POST /delete-user': () => {
        session = null
        return { body: { success: true, message: 'User deleted' } }
      },
    })
    const { user } = openApp('/confirm-deletion?token=T9')
    await user.click(await screen.findByRole('link', { name: 'Sign in to continue' }))
    await user.type(await screen.findByLabelText('Email or username'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password'), 'correct horse')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }))
    expect(await screen.findByRole('heading', { name: 'Your account is deleted' })).toBeTruthy()
    expect(api.to('POST', '/delete-user')[0]?.body).toEqual({ token: 'T9', callbackURL: '/goodbye/link' })
  })

  it('has a page for unknown addresses', async () => {
    fakeApi({})
    openApp('/nowhere')
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy()
  })

  it.each(['/sign-in', '/sign-up', '/forgot-password'])(
    'sends a signed-in person from %s to their account instead of piling up sessions',
    async (route) => {
      fakeApi({ 'GET /get-session': { body: signedInAs() } })
      openApp(route)
      expect(await screen.findByRole('heading', { name: 'Profile', level: 1 })).toBeTruthy()
    },
  )

  it('keeps the first addresses of the account pages working', async () => {
    fakeApi({
      'GET /get-session': { body: signedInAs() },
      'GET /activity': { body: { items: [], nextCursor: null } },
    })
    openApp('/activity')
    expect(await screen.findByRole('heading', { name: 'Activity', level: 1 })).toBeTruthy()
  })

  it('moves focus to the new page’s heading on client-side navigation', async () => {
    fakeApi({
      'GET /get-session': { body: signedInAs() },
      'GET /list-sessions': { body: [signedInAs().session] },
    })
    const { user } = openApp('/account')
    await screen.findByRole('heading', { name: 'Profile', level: 1 })
    const nav = screen.getByRole('navigation', { name: 'Account' })
    await user.click(within(nav).getByRole('link', { name: 'Security' }))
    const heading = await screen.findByRole('heading', { name: 'Security', level: 1 })
    await waitFor(() => expect(document.activeElement).toBe(heading))
    expect(heading.tabIndex).toBe(-1)
    expect(document.title).toBe('Security · Tessera')
  })

  it('shows the account frame, not a bare text, while the session loads, and a retry when it fails', async () => {
    let fail = true
    fakeApi({
      'GET /get-session': () =>
        fail ? { status: 503, body: { code: 'UNAVAILABLE', message: '' } } : { body: signedInAs() },
    })
    const { user } = openApp('/account')
    expect(screen.getByRole('status').textContent).toBe('Loading your account…')
    expect(screen.getByRole('banner')).toBeTruthy()
    const retry = await screen.findByRole('button', { name: 'Try again' })
    expect(screen.getByRole('alert').textContent).toContain('on our side')
    fail = false
    await user.click(retry)
    expect(await screen.findByRole('heading', { name: 'Profile', level: 1 })).toBeTruthy()
  })
})
