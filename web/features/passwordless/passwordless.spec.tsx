import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { SignInPage } from '../auth/SignInPage.js'
import { MagicLinkLandingPage } from './MagicLinkLandingPage.js'

const user = { id: 'u1', email: 'ada@example.com', name: 'Ada', image: null, emailVerified: true }
const session = {
  session: { id: 's1', userId: 'u1', token: 't', createdAt: '', updatedAt: '', expiresAt: '' },
  user,
}

const openSignIn = (state?: unknown) =>
  renderWithProviders(<SignInPage />, { route: '/sign-in', path: '/sign-in', state })

describe('email me a link', () => {
  it('mails a link to the address typed, landing on the page asked for', async () => {
    const api = fakeApi({ 'POST /sign-in/magic-link': { body: { status: true } } })
    const { user: ui } = openSignIn({ from: '/account/security' })
    await ui.type(screen.getByLabelText('Email or username'), ' ada@example.com ')
    await ui.click(screen.getByRole('button', { name: 'Email me a link' }))
    expect((await screen.findByRole('status')).textContent).toContain('ada@example.com')
    expect(api.to('POST', '/sign-in/magic-link')[0]?.body).toEqual({
      email: 'ada@example.com',
      callbackURL: '/signed-in-by-link?next=%2Faccount%2Fsecurity',
      errorCallbackURL: '/signed-in-by-link',
    })
  })

  it('asks for an address first, and sends nothing without one', async () => {
    const api = fakeApi({})
    const { user: ui } = openSignIn()
    await ui.click(screen.getByRole('button', { name: 'Email me a link' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/email/i)
    expect(api.to('POST', '/sign-in/magic-link')).toHaveLength(0)
  })
})

describe('email me a code', () => {
  it('mails a code, then signs in with the code entered', async () => {
    const api = fakeApi({
      'POST /email-otp/send-verification-otp': { body: { success: true } },
      'POST /sign-in/email-otp': { body: { token: 't', user } },
      'GET /get-session': { body: session },
    })
    const { user: ui } = openSignIn({ from: '/account/activity' })
    await ui.type(screen.getByLabelText('Email or username'), 'ada@example.com')
    await ui.click(screen.getByRole('button', { name: 'Email me a code' }))
    await ui.type(await screen.findByLabelText('Code from the mail'), '123456')
    await ui.click(screen.getByRole('button', { name: 'Sign in with the code' }))
    expect((await screen.findByTestId('location')).textContent).toBe('/account/activity')
    expect(api.to('POST', '/email-otp/send-verification-otp')[0]?.body).toEqual({
      email: 'ada@example.com',
      type: 'sign-in',
    })
    expect(api.to('POST', '/sign-in/email-otp')[0]?.body).toEqual({ email: 'ada@example.com', otp: '123456' })
  })

  it('goes on to the second step when the account has two-factor on', async () => {
    fakeApi({
      'POST /email-otp/send-verification-otp': { body: { success: true } },
      'POST /sign-in/email-otp': { body: { twoFactorRedirect: true, twoFactorMethods: ['totp'] } },
    })
    const { user: ui } = openSignIn({ from: '/account/activity' })
    await ui.type(screen.getByLabelText('Email or username'), 'ada@example.com')
    await ui.click(screen.getByRole('button', { name: 'Email me a code' }))
    await ui.type(await screen.findByLabelText('Code from the mail'), '123456')
    await ui.click(screen.getByRole('button', { name: 'Sign in with the code' }))
    expect((await screen.findByTestId('location')).textContent).toBe('/two-factor')
  })

  it('says when the code is wrong, or void after too many tries', async () => {
    let answer = { code: 'INVALID_OTP', status: 400 }
    fakeApi({
      'POST /email-otp/send-verification-otp': { body: { success: true } },
      'POST /sign-in/email-otp': () => ({ status: answer.status, body: { code: answer.code, message: '' } }),
    })
    const { user: ui } = openSignIn()
    await ui.type(screen.getByLabelText('Email or username'), 'ada@example.com')
    await ui.click(screen.getByRole('button', { name: 'Email me a code' }))
    await ui.type(await screen.findByLabelText('Code from the mail'), '000000')
    await ui.click(screen.getByRole('button', { name: 'Sign in with the code' }))
    expect((await screen.findByRole('alert')).textContent).toContain('That code is not right')
    answer = { code: 'TOO_MANY_ATTEMPTS', status: 403 }
    await ui.click(screen.getByRole('button', { name: 'Sign in with the code' }))
    expect((await screen.findByRole('alert')).textContent).toContain('Too many wrong codes')
  })

  it('refuses what is not a code before sending it', async () => {
    const api = fakeApi({ 'POST /email-otp/send-verification-otp': { body: { success: true } } })
    const { user: ui } = openSignIn()
    await ui.type(screen.getByLabelText('Email or username'), 'ada@example.com')
    await ui.click(screen.getByRole('button', { name: 'Email me a code' }))
    await ui.type(await screen.findByLabelText('Code from the mail'), 'abc')
    await ui.click(screen.getByRole('button', { name: 'Sign in with the code' }))
    expect(await screen.findByText('Enter the code from the mail: digits only.')).toBeTruthy()
    expect(api.to('POST', '/sign-in/email-otp')).toHaveLength(0)
  })
})

describe('the landing after a sign-in link', () => {
  it('goes on to the page the link was asked from', async () => {
    fakeApi({ 'GET /get-session': { body: session } })
    renderWithProviders(<MagicLinkLandingPage />, {
      route: '/signed-in-by-link?next=%2Faccount%2Fsecurity',
      path: '/signed-in-by-link',
    })
    expect((await screen.findByTestId('location')).textContent).toBe('/account/security')
  })

  it('never goes to another site, and says what went wrong with a link', async () => {
    fakeApi({})
    renderWithProviders(<MagicLinkLandingPage />, {
      route: '/signed-in-by-link?next=%2F%2Fevil.example',
      path: '/signed-in-by-link',
    })
    expect((await screen.findByTestId('location')).textContent).toBe('/account')
    renderWithProviders(<MagicLinkLandingPage />, {
      route: '/signed-in-by-link?error=INVALID_TOKEN',
      path: '/signed-in-by-link',
    })
    expect((await screen.findByRole('alert')).textContent).toContain('used already')
  })
})
