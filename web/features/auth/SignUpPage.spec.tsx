import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, heldReply } from '../../test/fake-api.js'
import { descriptionOf, renderWithProviders } from '../../test/render.js'
import { SignUpPage } from './SignUpPage.js'

const user = { id: 'u1', email: 'ada@example.com', name: 'Ada', image: null, emailVerified: false }

const open = () => renderWithProviders(<SignUpPage />, { route: '/sign-up' })

const fillIn = async (
  ui: ReturnType<typeof open>['user'],
  fields: { name?: string; email?: string; password?: string },
) => {
  if (fields.name) await ui.type(screen.getByLabelText('Name'), fields.name)
  if (fields.email) await ui.type(screen.getByLabelText('Email'), fields.email)
  if (fields.password) await ui.type(screen.getByLabelText('Password'), fields.password)
}

describe('sign-up', () => {
  it('shows the password rules before anything is submitted', () => {
    fakeApi({})
    open()
    expect(descriptionOf(screen.getByLabelText('Password'))).toContain('8 to 128 characters')
  })

  it('checks the form in the browser and sends nothing while it is wrong', async () => {
    const api = fakeApi({})
    const { user: ui } = open()
    await fillIn(ui, { email: 'not-an-address', password: 'short' })
    await ui.click(screen.getByRole('button', { name: 'Create account' }))

    expect(descriptionOf(screen.getByLabelText('Name'))).toContain('Enter your name.')
    expect(descriptionOf(screen.getByLabelText('Email'))).toContain('Enter a valid email address')
    expect(descriptionOf(screen.getByLabelText('Password'))).toContain('Use at least 8 characters.')
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true')
    // Only the social providers' list (for its buttons) is read before the form is sent.
    expect(api.calls.filter((call) => call.path !== '/providers')).toHaveLength(0)
  })

  it('shows an API error code under the field it concerns, in its own words', async () => {
    fakeApi({
      'POST /sign-up/email': {
        status: 422,
        body: { code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', message: 'text the portal must not rely on' },
      },
    })
    const { user: ui } = open()
    await fillIn(ui, { name: 'Ada', email: 'ada@example.com', password: 'correct horse' })
    await ui.click(screen.getByRole('button', { name: 'Create account' }))

    await waitFor(() =>
      expect(descriptionOf(screen.getByLabelText('Email'))).toContain(
        'An account with this email already exists',
      ),
    )
    expect(screen.queryByText(/text the portal must not rely on/)).toBeNull()
    // Announced as the field's problem, not as a problem of the whole form.
    expect(screen.getByRole('alert').textContent).toMatch(/^One field needs attention: An account/)
    expect(document.activeElement).toBe(screen.getByLabelText('Email'))
  })

  it('puts PASSWORD_COMPROMISED under the password field, and focuses it', async () => {
    fakeApi({
      'POST /sign-up/email': {
        status: 400,
        body: {
          code: 'PASSWORD_COMPROMISED',
          message: 'The password you entered has been compromised. Please choose a different password.',
        },
      },
    })
    const { user: ui } = open()
    await fillIn(ui, { name: 'Ada', email: 'ada@example.com', password: 'password123' })
    await ui.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() =>
      expect(descriptionOf(screen.getByLabelText('Password'))).toContain(
        'Please choose a different password.',
      ),
    )
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(screen.getByLabelText('Password'))
  })

  it('puts INVALID_EMAIL from the server under the email input', async () => {
    fakeApi({
      'POST /sign-up/email': { status: 400, body: { code: 'INVALID_EMAIL', message: 'Invalid email' } },
    })
    const { user: ui } = open()
    await fillIn(ui, { name: 'Ada', email: 'ada@localhost', password: 'correct horse' })
    await ui.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() =>
      expect(descriptionOf(screen.getByLabelText('Email'))).toContain('Enter a valid email'),
    )
  })

  it('disables the button while the request is in flight, so it is sent once', async () => {
    const held = heldReply({ body: { token: null, user } })
    const api = fakeApi({ 'POST /sign-up/email': held.route })
    const { user: ui } = open()
    await fillIn(ui, { name: 'Ada', email: 'ada@example.com', password: 'correct horse' })
    await ui.click(screen.getByRole('button', { name: 'Create account' }))

    const button = await screen.findByRole('button', { name: 'Creating your account…' })
    expect((button as HTMLButtonElement).disabled).toBe(true)
    await ui.click(button)
    held.release()

    const location = await screen.findByTestId('location')
    expect(location.textContent).toBe('/check-email')
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({
      email: 'ada@example.com',
      signedIn: false,
    })
    expect(api.to('POST', '/sign-up/email')).toHaveLength(1)
    expect(api.to('POST', '/sign-up/email')[0]?.body).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'correct horse',
      callbackURL: '/email-verified/link',
    })
    expect(api.to('POST', '/sign-up/email')[0]?.credentials).toBe('include')
  })
})

describe('the password field', () => {
  it('shows and hides what was typed, and says common passwords are refused', async () => {
    const ui = renderWithProviders(<SignUpPage />, { route: '/sign-up' })
    const password = screen.getByLabelText('Password')
    expect(password.getAttribute('type')).toBe('password')
    expect(descriptionOf(password)).toContain('common passwords (such as those in leaked lists) are refused')
    await ui.user.click(screen.getByRole('button', { name: 'Show' }))
    expect(password.getAttribute('type')).toBe('text')
    await ui.user.click(screen.getByRole('button', { name: 'Hide' }))
    expect(password.getAttribute('type')).toBe('password')
  })

  it('starts with the invited address when sent here by an invitation', () => {
    renderWithProviders(<SignUpPage />, {
      route: '/sign-up',
      state: { from: '/accept-invitation/inv-1', email: 'dan@example.com' },
    })
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('dan@example.com')
  })
})
