import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { descriptionOf, renderWithProviders } from '../../test/render.js'
import { SignInPage } from './SignInPage.js'

const signedIn = {
  session: { id: 's1', userId: 'u1', token: 'opaque', createdAt: '', updatedAt: '', expiresAt: '' },
  user: { id: 'u1', email: 'ada@example.com', name: 'Ada', image: null, emailVerified: true },
}

const signInAnswer = { redirect: false, token: 'x', user: signedIn.user }

const submit = async (
  ui: ReturnType<typeof renderWithProviders>['user'],
  email: string,
  password: string,
) => {
  await ui.type(screen.getByLabelText('Email or username'), email)
  await ui.type(screen.getByLabelText('Password'), password)
  await ui.click(screen.getByRole('button', { name: 'Sign in' }))
}

describe('sign-in', () => {
  it('shows a wrong email or password at the top of the form', async () => {
    fakeApi({
      'POST /sign-in/email': {
        status: 401,
        body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'whatever' },
      },
    })
    const { user: ui } = renderWithProviders(<SignInPage />, { route: '/sign-in' })
    await submit(ui, 'ada@example.com', 'wrong password')

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('The email or password is not right')
    expect((screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('says how long to wait when rate limited, from X-Retry-After', async () => {
    fakeApi({
      'POST /sign-in/email': {
        status: 429,
        body: { code: 'RATE_LIMITED', message: 'Too many requests. Please try again later.' },
        headers: { 'X-Retry-After': '9' },
      },
    })
    const { user: ui } = renderWithProviders(<SignInPage />, { route: '/sign-in' })
    await submit(ui, 'ada@example.com', 'secret secret')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Wait 9 seconds and try again.',
    )
  })

  it('explains an unverified email', async () => {
    fakeApi({ 'POST /sign-in/email': { status: 403, body: { code: 'EMAIL_NOT_VERIFIED', message: '' } } })
    const { user: ui } = renderWithProviders(<SignInPage />, { route: '/sign-in' })
    await submit(ui, 'ada@example.com', 'secret secret')
    expect((await screen.findByRole('alert')).textContent).toContain('We have just sent you a new link')
  })

  it('sends remember me (on by default), then opens the page asked for', async () => {
    let session: typeof signedIn | null = null
    const api = fakeApi({
      'POST /sign-in/email': () => {
        session = signedIn
        return { body: signInAnswer }
      },
      'GET /get-session': () => ({ body: session }),
    })
    const { user: ui } = renderWithProviders(<SignInPage />, {
      route: '/sign-in',
      state: { from: '/security' },
    })
    expect((screen.getByLabelText('Remember me') as HTMLInputElement).checked).toBe(true)
    await submit(ui, ' ada@example.com ', 'secret secret')

    expect((await screen.findByTestId('location')).textContent).toBe('/security')
    expect(api.to('POST', '/sign-in/email')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'secret secret',
      rememberMe: true,
    })
    // The page asked for reads the session itself (its guard asks afresh on entering).
  })

  it('sends rememberMe false when unticked, and goes to the account by default', async () => {
    const api = fakeApi({
      'POST /sign-in/email': { body: signInAnswer },
      'GET /get-session': { body: signedIn },
    })
    const { user: ui } = renderWithProviders(<SignInPage />, { route: '/sign-in' })
    await ui.click(screen.getByLabelText('Remember me'))
    await submit(ui, 'ada@example.com', 'secret secret')
    expect((await screen.findByTestId('location')).textContent).toBe('/account')
    expect(api.to('POST', '/sign-in/email')[0]?.body).toMatchObject({ rememberMe: false })
  })

  it('checks for an email and a password before sending', async () => {
    const api = fakeApi({})
    const { user: ui } = renderWithProviders(<SignInPage />, { route: '/sign-in' })
    await ui.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(descriptionOf(screen.getByLabelText('Email or username'))).toContain(
      'Enter your email address or username.',
    )
    expect(descriptionOf(screen.getByLabelText('Password'))).toContain('Enter your password.')
    // Only the social providers' list (for its buttons) is read before the form is sent.
    expect(api.calls.filter((call) => call.path !== '/providers')).toHaveLength(0)
  })

  it('shows the notice another page left, e.g. after a password reset', async () => {
    fakeApi({})
    renderWithProviders(<SignInPage />, {
      route: '/sign-in',
      state: { notice: 'Your password has been changed.' },
    })
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Your password has been changed.'),
    )
  })

  it('drops a stale "You are signed out." once a new attempt fails', async () => {
    fakeApi({
      'POST /sign-in/email': {
        status: 401,
        body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' },
      },
    })
    const { user } = renderWithProviders(<SignInPage />, {
      route: '/sign-in',
      state: { notice: 'You are signed out.' },
    })
    expect(await screen.findByText('You are signed out.')).toBeTruthy()
    await user.type(screen.getByLabelText('Email or username'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password'), 'wrong password')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(screen.getAllByRole('alert').length).toBeGreaterThan(0))
    expect(screen.queryByText('You are signed out.')).toBeNull()
  })
})

describe('sign-in with a username', () => {
  const open = (route = '/sign-in', state?: unknown) =>
    renderWithProviders(<SignInPage />, { route, path: '/sign-in', state })

  it('one field: without an @ it signs in by username', async () => {
    const api = fakeApi({
      'POST /sign-in/username': { body: signInAnswer },
      'GET /get-session': { body: signedIn },
    })
    const { user: ui } = open()
    await submit(ui, 'Ada_L', 'secret secret')
    expect((await screen.findByTestId('location')).textContent).toBe('/account')
    expect(api.to('POST', '/sign-in/username')[0]?.body).toEqual({
      username: 'Ada_L',
      password: 'secret secret',
      rememberMe: true,
    })
    expect(api.to('POST', '/sign-in/email')).toHaveLength(0)
  })

  it('a wrong username or password is said at the top, in the words of what was used', async () => {
    fakeApi({
      'POST /sign-in/username': {
        status: 401,
        body: { code: 'INVALID_USERNAME_OR_PASSWORD', message: 'Invalid username or password' },
      },
    })
    const { user: ui } = open()
    await submit(ui, 'ada_l', 'wrong wrong')
    expect((await screen.findByRole('alert')).textContent).toContain('The username or password is not right')
  })

  it('a malformed username (422) is shown under the field', async () => {
    fakeApi({
      'POST /sign-in/username': {
        status: 422,
        body: { code: 'USERNAME_TOO_SHORT', message: 'Username is too short' },
      },
    })
    const { user: ui } = open()
    await submit(ui, 'ab', 'secret secret')
    const field = screen.getByLabelText('Email or username')
    await waitFor(() => expect(descriptionOf(field)).toContain('Use at least 3 characters for a username.'))
    expect(document.activeElement).toBe(field)
  })

  it('an unverified address is explained for a username too', async () => {
    fakeApi({ 'POST /sign-in/username': { status: 403, body: { code: 'EMAIL_NOT_VERIFIED', message: '' } } })
    const { user: ui } = open()
    await submit(ui, 'ada_l', 'secret secret')
    expect((await screen.findByRole('alert')).textContent).toContain('not verified yet')
  })

  it('adding another account: says so, and goes to the account of the one just added', async () => {
    fakeApi({ 'POST /sign-in/email': { body: signInAnswer }, 'GET /get-session': { body: signedIn } })
    const { user: ui } = open('/sign-in?add-account', { from: '/account/security' })
    expect(screen.getByRole('heading', { name: 'Add another account' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Back to your account' }).getAttribute('href')).toBe('/account')
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull()
    await submit(ui, 'grace@example.com', 'secret secret')
    expect((await screen.findByTestId('location')).textContent).toBe('/account')
  })

  it('adding the account an invitation was sent to: back to the invitation', async () => {
    fakeApi({ 'POST /sign-in/email': { body: signInAnswer }, 'GET /get-session': { body: signedIn } })
    const { user: ui } = open('/sign-in?add-account', { from: '/accept-invitation/inv-1' })
    await submit(ui, 'grace@example.com', 'secret secret')
    expect((await screen.findByTestId('location')).textContent).toBe('/accept-invitation/inv-1')
  })
})
