import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { descriptionOf, renderWithProviders } from '../../test/render.js'
import { ResetPasswordPage } from './ResetPasswordPage.js'

const open = (route: string) => renderWithProviders(<ResetPasswordPage />, { route, path: '/reset-password' })

describe('reset password', () => {
  it('explains a link the server rejected, and offers a new one', () => {
    fakeApi({})
    open('/reset-password?error=INVALID_TOKEN')
    expect(screen.getByRole('alert').textContent).toContain('not valid')
    expect(screen.getByRole('link', { name: 'Send me a new link' }).getAttribute('href')).toBe(
      '/forgot-password',
    )
  })

  it('sets the new password with the token, then sends the person to sign in with a message', async () => {
    const api = fakeApi({ 'POST /reset-password': { body: { status: true } } })
    const { user } = open('/reset-password?token=tok123')
    await user.type(screen.getByLabelText('New password'), 'a much better one')
    await user.type(screen.getByLabelText('Repeat the new password'), 'a much better one')
    await user.click(screen.getByRole('button', { name: 'Save new password' }))

    const location = await screen.findByTestId('location')
    expect(location.textContent).toBe('/sign-in')
    expect(location.dataset.state).toContain('Your password has been changed')
    expect(api.calls[0]?.body).toEqual({ newPassword: 'a much better one', token: 'tok123' })
  })

  it('checks the rules and the repetition before sending', async () => {
    const api = fakeApi({})
    const { user } = open('/reset-password?token=tok123')
    await user.type(screen.getByLabelText('New password'), 'short')
    await user.type(screen.getByLabelText('Repeat the new password'), 'shorter')
    await user.click(screen.getByRole('button', { name: 'Save new password' }))
    expect(descriptionOf(screen.getByLabelText('New password'))).toContain('Use at least 8 characters.')
    expect(descriptionOf(screen.getByLabelText('Repeat the new password'))).toContain('not the same')
    expect(api.calls).toHaveLength(0)
  })

  it('switches to the bad-link page when the server refuses the token', async () => {
    fakeApi({
      'POST /reset-password': { status: 400, body: { code: 'INVALID_TOKEN', message: 'invalid token' } },
    })
    const { user } = open('/reset-password?token=used')
    await user.type(screen.getByLabelText('New password'), 'a much better one')
    await user.type(screen.getByLabelText('Repeat the new password'), 'a much better one')
    await user.click(screen.getByRole('button', { name: 'Save new password' }))
    expect(await screen.findByRole('heading', { name: 'This link does not work' })).toBeTruthy()
  })
})

describe('reset password: the current password', () => {
  it('shows PASSWORD_SAME_AS_CURRENT under the new password, and focuses it', async () => {
    fakeApi({
      'POST /reset-password': {
        status: 400,
        body: {
          code: 'PASSWORD_SAME_AS_CURRENT',
          message: 'New password must be different from the current one',
        },
      },
    })
    const { user } = open('/reset-password?token=tok123')
    await user.type(screen.getByLabelText('New password'), 'the same as before')
    await user.type(screen.getByLabelText('Repeat the new password'), 'the same as before')
    await user.click(screen.getByRole('button', { name: 'Save new password' }))
    const field = screen.getByLabelText('New password')
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'))
    expect(descriptionOf(field)).toContain('different from your current one')
    expect(document.activeElement).toBe(field)
    expect(screen.getByRole('heading', { name: 'Choose a new password' })).toBeTruthy()
  })
})
