import { screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import * as socialRequests from '../social/social.requests.js'
import * as ssoRequests from '../sso/sso.requests.js'
import * as handOff from './hand-off.js'
import { OAuthLoginPage } from './OAuthLoginPage.js'

// WebAuthn does not exist in jsdom: the library is replaced, as in passkeys.spec.tsx.
const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn() }))
vi.mock('@simplewebauthn/browser', async (original) => ({
  ...(await original<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: () => true,
  browserSupportsWebAuthnAutofill: async () => false,
  startAuthentication: webauthn.startAuthentication,
}))

/** The signed request the authorization endpoint sent the browser here with. */
const SIGNED = 'client_id=notes&scope=openid+email&state=st&exp=1&sig=abc'
const WAY_ON = { redirect: true, url: 'https://notes.example/callback?code=c&state=st' }

const openLoginPage = (search = SIGNED) =>
  renderWithProviders(<OAuthLoginPage />, { route: `/oauth/login?${search}`, path: '/oauth/login' })

let wentOn: ReturnType<typeof vi.fn<(url: string) => void>>
beforeEach(() => {
  wentOn = vi.fn<(url: string) => void>()
  vi.spyOn(handOff, 'goOn').mockImplementation((answer) => wentOn(answer.url))
})
afterEach(() => vi.restoreAllMocks())

describe('the OpenID provider’s login page', () => {
  it('offers every way in the sign-in page offers', async () => {
    fakeApi({ 'GET /providers': { body: [{ id: 'acme', name: 'Acme' }] } })
    openLoginPage()
    for (const name of [
      'Continue with Acme',
      'Sign in with a passkey',
      'Sign in',
      'Sign in with SSO',
      'Email me a link',
      'Email me a code',
    ])
      expect(await screen.findByRole('button', { name })).toBeTruthy()
  })

  it('signs in with a mailed code carrying the request, and goes on where the answer says', async () => {
    const api = fakeApi({
      'GET /providers': { body: [] },
      'POST /email-otp/send-verification-otp': { body: { success: true } },
      'POST /sign-in/email-otp': { body: WAY_ON },
    })
    const { user } = openLoginPage()
    await user.type(screen.getByLabelText('Email'), 'ada@example.com')
    await user.click(screen.getByRole('button', { name: 'Email me a code' }))
    await user.type(await screen.findByLabelText('Code from the mail'), '123456')
    await user.click(screen.getByRole('button', { name: 'Sign in with the code' }))
    await waitFor(() => expect(wentOn).toHaveBeenCalledWith(WAY_ON.url))
    expect(api.to('POST', '/sign-in/email-otp')[0]?.body).toEqual({
      email: 'ada@example.com',
      otp: '123456',
      oauth_query: SIGNED,
    })
    // Asking for the code carries nothing: that route takes no request.
    expect(api.to('POST', '/email-otp/send-verification-otp')[0]?.body).toEqual({
      email: 'ada@example.com',
      type: 'sign-in',
    })
  })

  it('signs in with a passkey carrying the request, and goes on', async () => {
    const api = fakeApi({
      'GET /providers': { body: [] },
      'GET /passkey/generate-authenticate-options': { body: { challenge: 'xyz' } },
      'POST /passkey/verify-authentication': { body: WAY_ON },
    })
    webauthn.startAuthentication.mockResolvedValue({ id: 'cred-1', response: {} })
    const { user } = openLoginPage()
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }))
    await waitFor(() => expect(wentOn).toHaveBeenCalledWith(WAY_ON.url))
    expect(api.to('POST', '/passkey/verify-authentication')[0]?.body).toEqual({
      response: { id: 'cred-1', response: {} },
      oauth_query: SIGNED,
    })
  })

  it('mails a link carrying the request', async () => {
    const api = fakeApi({
      'GET /providers': { body: [] },
      'POST /sign-in/magic-link': { body: { status: true } },
    })
    const { user } = openLoginPage()
    await user.type(screen.getByLabelText('Email'), 'ada@example.com')
    await user.click(screen.getByRole('button', { name: 'Email me a link' }))
    await screen.findByRole('status')
    expect(api.to('POST', '/sign-in/magic-link')[0]?.body).toMatchObject({
      email: 'ada@example.com',
      oauth_query: SIGNED,
    })
  })

  it('starts a social sign-in carrying the request, a failure coming back to this page', async () => {
    const api = fakeApi({
      'GET /providers': { body: [{ id: 'acme', name: 'Acme' }] },
      'POST /sign-in/social': { body: { url: 'https://idp.example/authorize', redirect: false } },
    })
    const went = vi.spyOn(socialRequests, 'goTo').mockImplementation(() => {})
    // Back from a failed attempt: the `error` the server added is not part of the signed request.
    const { user } = openLoginPage(`${SIGNED}&error=access_denied`)
    await user.click(await screen.findByRole('button', { name: 'Continue with Acme' }))
    await waitFor(() => expect(went).toHaveBeenCalledWith('https://idp.example/authorize'))
    expect(api.to('POST', '/sign-in/social')[0]?.body).toMatchObject({
      provider: 'acme',
      errorCallbackURL: `/oauth/login?${SIGNED}`,
      oauth_query: SIGNED,
    })
  })

  it('starts an SSO sign-in carrying the request', async () => {
    const api = fakeApi({
      'GET /providers': { body: [] },
      'POST /sign-in/sso': { body: { url: 'https://idp.example/sso', redirect: true } },
    })
    const went = vi.spyOn(ssoRequests, 'goTo').mockImplementation(() => {})
    const { user } = openLoginPage()
    await user.click(screen.getByRole('button', { name: 'Sign in with SSO' }))
    await user.type(await screen.findByLabelText('Work email or organization'), 'ada@acme.com')
    await user.click(screen.getByRole('button', { name: 'Continue with SSO' }))
    await waitFor(() => expect(went).toHaveBeenCalledWith('https://idp.example/sso'))
    expect(api.to('POST', '/sign-in/sso')[0]?.body).toMatchObject({
      email: 'ada@acme.com',
      oauth_query: SIGNED,
      errorCallbackURL: `/oauth/login?${SIGNED}`,
    })
  })
})
