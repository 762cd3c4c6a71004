import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { descriptionOf, renderWithProviders } from '../../test/render.js'
import { ChangePasswordForm } from './ChangePasswordForm.js'
import { DeleteAccountSection } from './DeleteAccountSection.js'
import { EmailSection } from './EmailSection.js'
import { ProfileForm } from './ProfileForm.js'

const { user: ada } = signedInAs()

describe('profile', () => {
  it('sends only what changed and confirms the save', async () => {
    const api = fakeApi({ 'POST /update-user': { body: { status: true } } })
    const { user } = renderWithProviders(<ProfileForm user={ada} />)
    const name = screen.getByLabelText('Name')
    await user.clear(name)
    await user.type(name, 'Ada King')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    expect((await screen.findByRole('status')).textContent).toBe('Your profile is saved.')
    expect(api.calls[0]?.body).toEqual({ name: 'Ada King' })
  })
})

describe('change email', () => {
  it('shows EMAIL_IS_THE_SAME under the new address', async () => {
    fakeApi({
      'POST /change-email': {
        status: 400,
        body: { code: 'EMAIL_IS_THE_SAME', message: 'Email is the same' },
      },
    })
    const { user } = renderWithProviders(<EmailSection user={ada} />)
    await user.type(screen.getByLabelText('New email address'), 'ada@example.com')
    await user.click(screen.getByRole('button', { name: 'Change email' }))
    await waitFor(() =>
      expect(descriptionOf(screen.getByLabelText('New email address'))).toContain(
        'already your email address',
      ),
    )
  })

  it('tells a verified person that the confirmation goes to the current address first', async () => {
    const api = fakeApi({ 'POST /change-email': { body: { status: true } } })
    const { user } = renderWithProviders(<EmailSection user={ada} />)
    await user.type(screen.getByLabelText('New email address'), 'ada@new.example')
    await user.click(screen.getByRole('button', { name: 'Change email' }))
    const notice = await screen.findByRole('status')
    expect(notice.textContent).toContain('confirmation link to your current address, ada@example.com')
    expect(api.calls[0]?.body).toEqual({ newEmail: 'ada@new.example', callbackURL: '/email-verified' })
  })
})

describe('change password', () => {
  it('puts a wrong current password under that field and sends the sign-out choice', async () => {
    const api = fakeApi({
      'POST /change-password': {
        status: 400,
        body: { code: 'INVALID_PASSWORD', message: 'Invalid password' },
      },
    })
    const { user } = renderWithProviders(<ChangePasswordForm />)
    await user.type(screen.getByLabelText('Current password'), 'not it at all')
    await user.type(screen.getByLabelText('New password'), 'a new good one')
    await user.click(screen.getByLabelText('Sign out my other devices'))
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    await waitFor(() =>
      expect(descriptionOf(screen.getByLabelText('Current password'))).toContain(
        'That password is not right.',
      ),
    )
    expect(api.calls[0]?.body).toEqual({
      currentPassword: 'not it at all',
      newPassword: 'a new good one',
      revokeOtherSessions: false,
    })
  })
})

describe('delete account', () => {
  it('needs the warning acknowledged before sending anything', async () => {
    const api = fakeApi({})
    const { user } = renderWithProviders(<DeleteAccountSection user={ada} />)
    expect(screen.getByText('This cannot be undone.')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Delete my account' }))
    expect(screen.getByText(/Tick the box to confirm/)).toBeTruthy()
    expect(api.calls).toHaveLength(0)
  })

  it('says to check the mail when deletion needs the mailed link', async () => {
    const api = fakeApi({
      'POST /delete-user': { body: { success: true, message: 'Verification email sent' } },
    })
    const { user } = renderWithProviders(<DeleteAccountSection user={ada} />)
    await user.click(screen.getByLabelText(/I understand/))
    await user.click(screen.getByRole('button', { name: 'Delete my account' }))
    expect((await screen.findByRole('status')).textContent).toContain('Check your mail.')
    expect(api.calls[0]?.body).toEqual({ callbackURL: '/goodbye' })
  })

  it('deletes at once with the password and says goodbye', async () => {
    const api = fakeApi({ 'POST /delete-user': { body: { success: true, message: 'User deleted' } } })
    const { user } = renderWithProviders(<DeleteAccountSection user={ada} />)
    await user.type(screen.getByLabelText('Password (optional)'), 'correct horse')
    await user.click(screen.getByLabelText(/I understand/))
    await user.click(screen.getByRole('button', { name: 'Delete my account' }))
    expect((await screen.findByTestId('location')).textContent).toBe('/goodbye')
    expect(api.calls[0]?.body).toEqual({ password: 'correct horse', callbackURL: '/goodbye' })
  })
})
