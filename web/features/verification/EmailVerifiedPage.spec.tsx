import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { descriptionOf, renderWithProviders } from '../../test/render.js'
import { EmailVerifiedPage } from './EmailVerifiedPage.js'

const open = (route: string, path = '/email-verified/:via') =>
  renderWithProviders(<EmailVerifiedPage />, { route, path })

describe('email verified page', () => {
  it('confirms a verified address when the server’s redirect brought a signed-out person here', async () => {
    fakeApi({ 'GET /get-session': { body: null } })
    open('/email-verified/link')
    expect(await screen.findByRole('heading', { name: 'Email verified' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy()
  })

  it('claims nothing when opened by hand, signed out', async () => {
    fakeApi({ 'GET /get-session': { body: null } })
    open('/email-verified', '/email-verified')
    expect(await screen.findByRole('heading', { name: 'Email verification' })).toBeTruthy()
    expect(screen.queryByText(/confirmed/)).toBeNull()
  })

  it('tells a signed-in person whose address is not verified, whatever the address says', async () => {
    fakeApi({ 'GET /get-session': { body: signedInAs({ emailVerified: false }) } })
    open('/email-verified/link')
    expect(await screen.findByRole('heading', { name: 'Your email is not verified yet' })).toBeTruthy()
  })

  it('after the current address approved a change, says that the new address gets its own link', async () => {
    fakeApi({
      'GET /get-session': { body: signedInAs() },
      'GET /pending-email-change': {
        body: { pending: { newEmail: 'ada@new.example', step: 'verify-new', requestedAt: '2026-01-01' } },
      },
    })
    open('/email-verified/change')
    expect(await screen.findByRole('heading', { name: 'Change approved' })).toBeTruthy()
    expect(screen.getByRole('status').textContent).toContain('We have sent a link to ada@new.example')
  })

  it('explains an expired link and sends a new one to the signed-in person', async () => {
    const api = fakeApi({
      'GET /get-session': { body: signedInAs({ emailVerified: false }) },
      'POST /send-verification-email': { body: { status: true } },
    })
    const { user } = open('/email-verified/link?error=token_expired')
    expect((await screen.findByRole('alert')).textContent).toContain('expired')
    await user.click(screen.getByRole('button', { name: 'Send a new verification link' }))
    expect((await screen.findByRole('status')).textContent).toContain(
      'We have sent a new link to ada@example.com',
    )
    expect(api.to('POST', '/send-verification-email')[0]?.body).toEqual({
      email: 'ada@example.com',
      callbackURL: '/email-verified/link',
    })
  })

  it('asks a signed-out person for their address after an invalid link', async () => {
    const api = fakeApi({
      'GET /get-session': { body: null },
      'POST /send-verification-email': { status: 400, body: { code: 'INVALID_EMAIL', message: '' } },
    })
    const { user } = open('/email-verified/link?error=invalid_token')
    expect((await screen.findByRole('alert')).textContent).toContain('not valid')
    await user.type(screen.getByLabelText('Email'), 'ada@nowhere')
    await user.click(screen.getByRole('button', { name: 'Send a new verification link' }))
    await screen.findByText(/Enter a valid email address/, { selector: '.field-error span' })
    expect(descriptionOf(screen.getByLabelText('Email'))).toContain('Enter a valid email address')
    expect(api.to('POST', '/send-verification-email')).toHaveLength(1)
  })
})
