import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, heldReply } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { descriptionOf, renderWithProviders } from '../../test/render.js'
import { ProfileForm } from '../account/ProfileForm.js'
import { SignUpPage } from '../auth/SignUpPage.js'

const created = { token: null, user: signedInAs().user }

const openSignUp = () => renderWithProviders(<SignUpPage />, { route: '/sign-up' })
const usernameField = () => screen.getByLabelText('Username (optional)')

const fillSignUp = async (ui: ReturnType<typeof openSignUp>['user'], username: string) => {
  await ui.type(screen.getByLabelText('Name'), 'Ada')
  await ui.type(screen.getByLabelText('Email'), 'ada@example.com')
  if (username) await ui.type(usernameField(), username)
  await ui.type(screen.getByLabelText('Password'), 'secret secret')
}

describe('username at sign-up', () => {
  it('is optional, and tells its rules before anything is typed', () => {
    fakeApi({})
    openSignUp()
    const field = usernameField() as HTMLInputElement
    expect(descriptionOf(field)).toContain(
      'Letters, digits, underscores (_) and dots (.), at least 3 characters. Up to 30 characters.',
    )
    expect(field.maxLength).toBe(30)
    expect(field.getAttribute('autocapitalize')).toBe('none')
  })

  it('asks whether it is free once typing settles: once, not per keystroke', async () => {
    const api = fakeApi({
      'POST /is-username-available': (call) => ({
        body: { available: (call.body as { username: string }).username !== 'ada' },
      }),
    })
    const { user } = openSignUp()
    await user.type(usernameField(), 'Ada_L')
    await waitFor(() => expect(descriptionOf(usernameField())).toContain('Ada_L is free.'))
    expect(api.to('POST', '/is-username-available').map((call) => call.body)).toEqual([{ username: 'ada_l' }])

    await user.clear(usernameField())
    await user.type(usernameField(), 'Ada')
    await waitFor(() => expect(descriptionOf(usernameField())).toContain('Ada is taken. Try another one.'))
    // Never asked about a name that breaks the rules.
    await user.clear(usernameField())
    await user.type(usernameField(), 'a!')
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(api.to('POST', '/is-username-available')).toHaveLength(2)
  })

  it('never waits for the check: submits while it is still on its way, with the name as typed', async () => {
    const check = heldReply({ body: { available: true } })
    const api = fakeApi({
      'POST /is-username-available': check.route,
      'POST /sign-up/email': { body: created },
    })
    const { user } = openSignUp()
    await fillSignUp(user, 'Ada.L')
    await waitFor(() => expect(api.to('POST', '/is-username-available')).toHaveLength(1))
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect((await screen.findByTestId('location')).textContent).toBe('/check-email')
    expect(api.to('POST', '/sign-up/email')[0]?.body).toMatchObject({
      username: 'Ada.L',
      displayUsername: 'Ada.L',
    })
    check.release()
  })

  it('sends no username when left empty', async () => {
    const api = fakeApi({ 'POST /sign-up/email': { body: created } })
    const { user } = openSignUp()
    await fillSignUp(user, '')
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await screen.findByTestId('location')
    expect(api.to('POST', '/sign-up/email')[0]?.body).not.toHaveProperty('username')
  })

  it('checks the rules before sending, and shows the server’s refusal under the field', async () => {
    const api = fakeApi({
      'POST /is-username-available': { body: { available: true } },
      'POST /sign-up/email': {
        status: 400,
        body: {
          code: 'USERNAME_IS_ALREADY_TAKEN',
          message: 'Username is already taken. Please try another.',
        },
      },
    })
    const { user } = openSignUp()
    await fillSignUp(user, 'no spaces')
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(descriptionOf(usernameField())).toContain('Use only letters, digits, underscores (_) and dots (.)')
    expect(document.activeElement).toBe(usernameField())
    expect(api.to('POST', '/sign-up/email')).toHaveLength(0)

    await user.clear(usernameField())
    await user.type(usernameField(), 'ada')
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() => expect(descriptionOf(usernameField())).toContain('This username is taken.'))
    expect(usernameField().getAttribute('aria-invalid')).toBe('true')
  })
})

describe('username in the profile', () => {
  it('shows the username as its owner typed it, and needs no check for it', async () => {
    const api = fakeApi({})
    renderWithProviders(
      <ProfileForm user={signedInAs({ username: 'ada_l', displayUsername: 'Ada_L' }).user} />,
    )
    const field = screen.getByLabelText('Username') as HTMLInputElement
    expect(field.value).toBe('Ada_L')
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(api.calls).toHaveLength(0)
  })

  it('changes it: sends the new one (stored lowercased, shown as typed)', async () => {
    const api = fakeApi({
      'POST /is-username-available': { body: { available: true } },
      'POST /update-user': { body: { status: true } },
    })
    const { user } = renderWithProviders(<ProfileForm user={signedInAs().user} />)
    await user.type(screen.getByLabelText('Username (optional)'), 'Countess.Ada')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    await screen.findByText('Your profile is saved.')
    expect(api.to('POST', '/update-user')[0]?.body).toEqual({
      username: 'Countess.Ada',
      displayUsername: 'Countess.Ada',
    })
  })

  it('shows a taken name under the field', async () => {
    fakeApi({
      'POST /is-username-available': { body: { available: false } },
      'POST /update-user': {
        status: 400,
        body: {
          code: 'USERNAME_IS_ALREADY_TAKEN',
          message: 'Username is already taken. Please try another.',
        },
      },
    })
    const { user } = renderWithProviders(<ProfileForm user={signedInAs().user} />)
    const field = screen.getByLabelText('Username (optional)')
    await user.type(field, 'grace')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    await waitFor(() => expect(descriptionOf(field)).toContain('This username is taken.'))
    expect(document.activeElement).toBe(field)
  })

  it('does not pretend a username can be removed', async () => {
    const api = fakeApi({})
    const { user } = renderWithProviders(
      <ProfileForm user={signedInAs({ username: 'ada', displayUsername: 'Ada' }).user} />,
    )
    await user.clear(screen.getByLabelText('Username'))
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(descriptionOf(screen.getByLabelText('Username'))).toContain('can be changed but not removed')
    expect(api.to('POST', '/update-user')).toHaveLength(0)
  })
})
