import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeApi, type Reply } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { SignInPage } from '../auth/SignInPage.js'
import { SsoSignIn } from './SsoSignIn.js'
import * as requests from './sso.requests.js'

afterEach(() => vi.restoreAllMocks())

const IDP_URL = 'http://127.0.0.1:4000/auth?client_id=tessera'

const openAndSubmit = async (ui: ReturnType<typeof renderWithProviders>['user'], typed: string) => {
  await ui.click(screen.getByRole('button', { name: 'Sign in with SSO' }))
  // The form's code loads when it is first opened.
  const field = await screen.findByLabelText('Work email or organization')
  await waitFor(() => expect(document.activeElement).toBe(field))
  if (typed) await ui.type(field, typed)
  await ui.click(screen.getByRole('button', { name: 'Continue with SSO' }))
}

const refusedWith = async (reply: Reply, typed: string) => {
  fakeApi({ 'POST /sign-in/sso': reply })
  const went = vi.spyOn(requests, 'goTo').mockImplementation(() => {})
  const { user } = renderWithProviders(<SsoSignIn />, { route: '/sign-in' })
  await openAndSubmit(user, typed)
  const alert = await screen.findByRole('alert')
  expect(went).not.toHaveBeenCalled()
  return alert.textContent ?? ''
}

describe('sign in with SSO', () => {
  it('opens a small form, asks by work email and sends the browser to the identity provider', async () => {
    const api = fakeApi({ 'POST /sign-in/sso': { body: { url: IDP_URL, redirect: true } } })
    const went = vi.spyOn(requests, 'goTo').mockImplementation(() => {})
    const { user } = renderWithProviders(<SsoSignIn />, { route: '/sign-in' })
    const toggle = screen.getByRole('button', { name: 'Sign in with SSO' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByLabelText('Work email or organization')).toBeNull()
    await openAndSubmit(user, ' ada@acme.test ')
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    await waitFor(() => expect(went).toHaveBeenCalledWith(IDP_URL))
    expect(api.to('POST', '/sign-in/sso')[0]?.body).toEqual({
      email: 'ada@acme.test',
      callbackURL: '/account',
      errorCallbackURL: '/sign-in',
    })
  })

  it("asks by the organization's short name when there is no @", async () => {
    const api = fakeApi({ 'POST /sign-in/sso': { body: { url: IDP_URL, redirect: true } } })
    const went = vi.spyOn(requests, 'goTo').mockImplementation(() => {})
    const { user } = renderWithProviders(<SsoSignIn />, { route: '/sign-in' })
    await openAndSubmit(user, 'Acme')
    await waitFor(() => expect(went).toHaveBeenCalledWith(IDP_URL))
    expect(api.to('POST', '/sign-in/sso')[0]?.body).toMatchObject({ organizationSlug: 'acme' })
  })

  it('checks the field before asking the server', async () => {
    const api = fakeApi({})
    const { user } = renderWithProviders(<SsoSignIn />, { route: '/sign-in' })
    await openAndSubmit(user, '')
    expect(screen.getByLabelText('Work email or organization').getAttribute('aria-invalid')).toBe('true')
    await user.type(screen.getByLabelText('Work email or organization'), 'ada@')
    await user.click(screen.getByRole('button', { name: 'Continue with SSO' }))
    expect(await screen.findByText('Enter a valid email address, like name@example.com.')).toBeTruthy()
    expect(api.to('POST', '/sign-in/sso')).toHaveLength(0)
  })

  it('says no single sign-on is set up for the domain, without a word about accounts', async () => {
    const text = await refusedWith(
      { status: 404, body: { code: 'NO_SSO_PROVIDER_FOUND', message: 'No provider found for the issuer' } },
      'ada@initech.test',
    )
    expect(text).toContain('Single sign-on is not set up for initech.test')
    expect(text.toLowerCase()).not.toContain('account')
  })

  it('says no single sign-on is set up for an unknown organization', async () => {
    const text = await refusedWith(
      { status: 404, body: { code: 'NO_SSO_PROVIDER_FOUND', message: '' } },
      'nope',
    )
    expect(text).toContain('not set up for that organization')
  })

  it('explains a domain that is not verified yet', async () => {
    const text = await refusedWith(
      { status: 401, body: { code: 'PROVIDER_DOMAIN_NOT_VERIFIED', message: '' } },
      'ada@acme.test',
    )
    expect(text).toContain('waiting for its domain to be verified')
  })

  it('says how long to wait when rate limited', async () => {
    const text = await refusedWith(
      { status: 429, body: { code: 'RATE_LIMITED', message: '' }, headers: { 'X-Retry-After': '7' } },
      'ada@acme.test',
    )
    expect(text).toBe('Too many attempts. Wait 7 seconds and try again.')
  })
})

describe('a password sign-in refused because the organization requires SSO', () => {
  it('says so and offers SSO with the address filled in', async () => {
    const api = fakeApi({
      'POST /sign-in/email': {
        status: 403,
        body: { code: 'SSO_REQUIRED', message: 'Your organization requires single sign-on' },
      },
      'POST /sign-in/sso': { body: { url: IDP_URL, redirect: true } },
    })
    const went = vi.spyOn(requests, 'goTo').mockImplementation(() => {})
    const { user } = renderWithProviders(<SignInPage />, { route: '/sign-in' })
    await user.type(screen.getByLabelText('Email or username'), 'bob@acme.test')
    await user.type(screen.getByLabelText('Password'), 'correct horse battery')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))

    expect((await screen.findByRole('status')).textContent).toContain(
      'Your organization signs you in through SSO',
    )
    expect(screen.queryByRole('alert')).toBeNull()
    const field = (await screen.findByLabelText('Work email or organization')) as HTMLInputElement
    expect(field.value).toBe('bob@acme.test')
    await waitFor(() => expect(document.activeElement).toBe(field))
    // Closed, then refused again for the same address: the form opens again.
    await user.click(screen.getByRole('button', { name: 'Sign in with SSO' }))
    expect(screen.queryByLabelText('Work email or organization')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByLabelText('Work email or organization')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Continue with SSO' }))
    await waitFor(() => expect(went).toHaveBeenCalledWith(IDP_URL))
    expect(api.to('POST', '/sign-in/sso')[0]?.body).toMatchObject({ email: 'bob@acme.test' })
  })
})

describe('back from the identity provider with an error', () => {
  it('says in words what went wrong', async () => {
    fakeApi({})
    renderWithProviders(<SignInPage />, { route: '/sign-in?error=invalid_provider' })
    expect((await screen.findByRole('alert')).textContent).toContain(
      'identity provider could not be reached or did not answer as expected',
    )
  })
})
