import { screen, waitFor } from '@testing-library/react'
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
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeTruthy()
    expect(screen.getByRole('navigation', { name: 'Account' })).toBeTruthy()
    expect(document.title).toBe('Your account · Tessera')
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
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password'), 'correct horse')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('heading', { name: 'Security' })).toBeTruthy()
    expect(await screen.findByText('This device')).toBeTruthy()
  })

  it('signs out: forgets the person and shows sign-in with a notice', async () => {
    const api = fakeApi({
      'GET /get-session': { body: signedInAs() },
      'POST /sign-out': { body: { success: true } },
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

  it('has a page for unknown addresses', async () => {
    fakeApi({})
    openApp('/nowhere')
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy()
  })
})
