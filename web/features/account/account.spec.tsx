import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { descriptionOf, renderWithProviders } from '../../test/render.js'
import { ChangePasswordForm } from './ChangePasswordForm.js'
import { DangerZone } from './DangerZone.js'
import { EmailSection } from './EmailSection.js'
import { ProfileForm } from './ProfileForm.js'

const { user: ada } = signedInAs()

const posts = (api: ReturnType<typeof fakeApi>) => api.calls.filter((call) => call.method === 'POST')

describe('profile', () => {
  it('sends only what changed and confirms the save next to the button', async () => {
    const api = fakeApi({ 'POST /update-user': { body: { status: true } } })
    const { user } = renderWithProviders(<ProfileForm user={ada} />)
    const name = screen.getByLabelText('Name')
    await user.clear(name)
    await user.type(name, 'Ada King')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    // The username field's availability line is a status region too: find the save notice by its words.
    const notice = (await screen.findByText('Your profile is saved.')).closest('[role="status"]')
    expect(notice?.textContent).toBe('Your profile is saved.')
    expect(notice?.closest('.form-actions')?.querySelector('button')?.textContent).toBe('Save profile')
    expect(api.calls[0]?.body).toEqual({ name: 'Ada King' })
  })

  it('enforces and tells the server’s limits on the name and the picture address', () => {
    fakeApi({})
    renderWithProviders(<ProfileForm user={ada} />)
    const name = screen.getByLabelText('Name') as HTMLInputElement
    const image = screen.getByLabelText('Picture address (optional)') as HTMLInputElement
    expect(name.maxLength).toBe(256)
    expect(image.maxLength).toBe(2048)
    expect(descriptionOf(name)).toContain('Up to 256 characters.')
    expect(descriptionOf(image)).toContain('Up to 2048 characters.')
  })

  it('shows a VALIDATION_ERROR that names a field under that field, and focuses it', async () => {
    fakeApi({
      'POST /update-user': {
        status: 400,
        body: {
          code: 'VALIDATION_ERROR',
          message: 'Invalid body parameters: [body.name] must NOT have more than 256 characters',
        },
      },
    })
    const { user } = renderWithProviders(<ProfileForm user={ada} />)
    await user.type(screen.getByLabelText('Name'), ' the Countess')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    const name = screen.getByLabelText('Name')
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'))
    expect(descriptionOf(name)).toContain('not in the form the server expects')
    expect(document.activeElement).toBe(name)
    expect(screen.queryByText(/Some of the details/)).toBeNull()
  })

  it('previews the picture only once typing has settled', async () => {
    fakeApi({})
    const { user } = renderWithProviders(<ProfileForm user={ada} />)
    await user.type(screen.getByLabelText('Picture address (optional)'), 'https://example.com/ada.png')
    // Typed character by character, yet no image was requested while typing.
    expect(screen.queryByRole('img', { name: 'Avatar preview' })).toBeNull()
    const preview = await screen.findByRole('img', { name: 'Avatar preview' })
    expect(preview.getAttribute('src')).toBe('https://example.com/ada.png')
    expect(screen.getAllByRole('img', { name: 'Avatar preview' })).toHaveLength(1)
  })

  it('calls a picture that does not load an error, and does not save it', async () => {
    const api = fakeApi({ 'POST /update-user': { body: { status: true } } })
    const { user } = renderWithProviders(<ProfileForm user={ada} />)
    const image = screen.getByLabelText('Picture address (optional)')
    await user.type(image, 'https://example.com/missing.png')
    const preview = await screen.findByRole('img', { name: 'Avatar preview' })
    act(() => {
      fireEvent.error(preview)
    })
    await waitFor(() => expect(image.getAttribute('aria-invalid')).toBe('true'))
    expect(descriptionOf(image)).toContain('We could not load an image from this address')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(posts(api)).toHaveLength(0)
  })
})

describe('a picture saved at once', () => {
  it('is loaded before saving, and refused with words when it does not load', async () => {
    const api = fakeApi({ 'POST /update-user': { body: { status: true } } })
    const { user } = renderWithProviders(<ProfileForm user={ada} />)
    const image = screen.getByLabelText('Picture address (optional)')
    await user.type(image, 'https://example.com/gone.png')
    // Saved before the preview settled: the picture is loaded now, and nothing is sent yet.
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    const preview = await screen.findByRole('img', { name: 'Avatar preview' })
    expect(posts(api)).toHaveLength(0)
    act(() => {
      fireEvent.error(preview)
    })
    await waitFor(() => expect(image.getAttribute('aria-invalid')).toBe('true'))
    expect(descriptionOf(image)).toContain('We could not load an image from this address')
    expect(posts(api)).toHaveLength(0)
    expect(screen.queryByText('Your profile is saved.')).toBeNull()
    // The initial stands in for the picture.
    expect(screen.queryByRole('img', { name: 'Avatar preview' })).toBeNull()
  })

  it('is saved once it loads', async () => {
    const api = fakeApi({ 'POST /update-user': { body: { status: true } } })
    const { user } = renderWithProviders(<ProfileForm user={ada} />)
    await user.type(screen.getByLabelText('Picture address (optional)'), 'https://example.com/ada.png')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    const preview = await screen.findByRole('img', { name: 'Avatar preview' })
    act(() => {
      fireEvent.load(preview)
    })
    expect(await screen.findByText('Your profile is saved.')).toBeTruthy()
    expect(posts(api)[0]?.body).toEqual({ image: 'https://example.com/ada.png' })
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
    await user.type(screen.getByLabelText('New email address'), 'ADA@example.com ')
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
    expect(posts(api)[0]?.body).toEqual({
      newEmail: 'ada@new.example',
      callbackURL: '/email-verified/change',
    })
  })

  it('shows a pending change and its next step, as the server reports it after a reload', async () => {
    fakeApi({
      'GET /pending-email-change': {
        body: { pending: { newEmail: 'ada@new.example', step: 'verify-new', requestedAt: '2026-01-01' } },
      },
    })
    renderWithProviders(<EmailSection user={ada} />)
    expect(await screen.findByText('Changing to ada@new.example')).toBeTruthy()
    expect(screen.getByText(/open the link we sent to ada@new.example/)).toBeTruthy()
  })
})

describe('change password', () => {
  it('shows the server’s PASSWORD_SAME_AS_CURRENT under the new password', async () => {
    fakeApi({
      'POST /change-password': {
        status: 400,
        body: {
          code: 'PASSWORD_SAME_AS_CURRENT',
          message: 'New password must be different from the current one',
        },
      },
    })
    const { user } = renderWithProviders(<ChangePasswordForm email={ada.email} />)
    // Typed differently from the current one here: the server knows it, the form cannot.
    await user.type(screen.getByLabelText('Current password'), 'typed one way')
    await user.type(screen.getByLabelText('New password'), 'the password it is now')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    const field = screen.getByLabelText('New password')
    await waitFor(() => expect(descriptionOf(field)).toContain('different from your current one'))
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(field)
  })

  it('puts a wrong current password under that field and sends the sign-out choice', async () => {
    const api = fakeApi({
      'POST /change-password': {
        status: 400,
        body: { code: 'INVALID_PASSWORD', message: 'Invalid password' },
      },
    })
    const { user } = renderWithProviders(<ChangePasswordForm email={ada.email} />)
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

  it('refuses a new password equal to the current one before sending, and focuses it', async () => {
    const api = fakeApi({})
    const { user } = renderWithProviders(<ChangePasswordForm email={ada.email} />)
    await user.type(screen.getByLabelText('Current password'), 'same old secret')
    await user.type(screen.getByLabelText('New password'), 'same old secret')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    const field = screen.getByLabelText('New password')
    expect(descriptionOf(field)).toContain('different from your current one')
    expect(document.activeElement).toBe(field)
    expect(screen.getByRole('alert').textContent).toContain('different from your current one')
    expect(api.calls).toHaveLength(0)
  })

  it('names the account for password managers in a hidden username field', () => {
    fakeApi({})
    const { container } = renderWithProviders(<ChangePasswordForm email={ada.email} />)
    const username = container.querySelector<HTMLInputElement>('input[autocomplete="username"]')
    expect(username?.value).toBe('ada@example.com')
    expect(username?.hidden).toBe(true)
  })
})

describe('delete account', () => {
  const open = async () => {
    const view = renderWithProviders(<DangerZone user={ada} />)
    await view.user.click(screen.getByRole('button', { name: 'Delete account…' }))
    return view
  }

  it('is a danger zone that asks first, and ties the unticked box’s error to it', async () => {
    const api = fakeApi({})
    expect(screen.queryByText('This cannot be undone.')).toBeNull()
    const { user } = await open()
    expect(screen.getByRole('region', { name: 'Danger zone' })).toBeTruthy()
    expect(screen.getByText('This cannot be undone.')).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByLabelText('Your password'))
    await user.type(screen.getByLabelText('Your password'), 'correct horse')
    await user.click(screen.getByRole('button', { name: 'Delete my account' }))
    const box = screen.getByLabelText(/I understand/)
    expect(box.getAttribute('aria-invalid')).toBe('true')
    expect(descriptionOf(box)).toContain('Tick the box to confirm')
    expect(document.activeElement).toBe(box)
    expect(posts(api)).toHaveLength(0)
  })

  it('says to check the mail when deletion needs the mailed link', async () => {
    const api = fakeApi({
      'POST /delete-user': { body: { success: true, message: 'Verification email sent' } },
    })
    const { user } = await open()
    await user.type(screen.getByLabelText('Your password'), 'correct horse')
    await user.click(screen.getByLabelText(/I understand/))
    await user.click(screen.getByRole('button', { name: 'Delete my account' }))
    expect((await screen.findByRole('status')).textContent).toContain('Check your mail.')
    expect(posts(api)[0]?.body).toEqual({ password: 'correct horse', callbackURL: '/goodbye/link' })
  })

  it('deletes at once when the server does, and says goodbye through navigation state', async () => {
    fakeApi({ 'POST /delete-user': { body: { success: true, message: 'User deleted' } } })
    const { user } = await open()
    await user.type(screen.getByLabelText('Your password'), 'correct horse')
    await user.click(screen.getByLabelText(/I understand/))
    await user.click(screen.getByRole('button', { name: 'Delete my account' }))
    const location = await screen.findByTestId('location')
    expect(location.textContent).toBe('/goodbye')
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ deleted: true })
  })

  it('words what happens after the button from the server’s configuration', async () => {
    fakeApi({
      'GET /portal-config': {
        body: {
          emailVerification: { sendOnSignUp: true, required: false },
          deleteUser: { enabled: true, immediate: false },
          changeEmail: { enabled: true },
        },
      },
    })
    await open()
    expect(await screen.findByText(/deleted only when you open it/)).toBeTruthy()
  })
})
