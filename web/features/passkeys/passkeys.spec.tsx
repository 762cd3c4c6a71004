import { WebAuthnError } from '@simplewebauthn/browser'
import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { PasskeySignIn } from './PasskeySignIn.js'
import { PasskeysSection } from './PasskeysSection.js'

// The browser's WebAuthn calls (navigator.credentials) do not exist in jsdom: the library that wraps
// them is replaced here, and the real ceremony runs in Chromium (tests/e2e/passkeys.e2e.spec.ts).
const webauthn = vi.hoisted(() => ({
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
  autofill: false,
}))
vi.mock('@simplewebauthn/browser', async (original) => ({
  ...(await original<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: () => true,
  browserSupportsWebAuthnAutofill: async () => webauthn.autofill,
  startRegistration: webauthn.startRegistration,
  startAuthentication: webauthn.startAuthentication,
}))

const passkey = (id: string, name: string | null) => ({
  id,
  name,
  credentialID: `cred-${id}`,
  deviceType: 'singleDevice',
  backedUp: false,
  createdAt: '2030-01-02T03:04:05.000Z',
})
const notAllowed = () =>
  Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' })

beforeEach(() => {
  webauthn.startRegistration.mockReset()
  webauthn.startAuthentication.mockReset()
  webauthn.autofill = false
})

describe('the passkeys section', () => {
  it('adds a passkey with the options the server gave and shows it', async () => {
    let passkeys = [passkey('p1', 'Laptop')]
    const api = fakeApi({
      'GET /passkey/list-user-passkeys': () => ({ body: passkeys }),
      'GET /passkey/generate-register-options': { body: { challenge: 'abc', rp: { id: 'localhost' } } },
      'POST /passkey/verify-registration': () => {
        passkeys = [...passkeys, passkey('p2', null)]
        return { body: passkeys[1] }
      },
    })
    webauthn.startRegistration.mockResolvedValue({ id: 'cred-p2', response: {} })
    const { user } = renderWithProviders(<PasskeysSection />)
    const list = await screen.findByRole('list', { name: 'Your passkeys' })
    expect(within(list).getByText('Laptop')).toBeTruthy()
    // The name is said once on screen; the buttons carry it for a screen reader only.
    expect(within(list).getByRole('button', { name: 'Rename Laptop' }).textContent).toBe('Rename')
    expect(within(list).getByRole('button', { name: 'Remove Laptop' }).textContent).toBe('Remove')
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }))
    expect((await screen.findByRole('status')).textContent).toContain('Your passkey was added')
    expect(webauthn.startRegistration).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'abc', rp: { id: 'localhost' } },
    })
    expect(api.to('POST', '/passkey/verify-registration')[0]?.body).toEqual({
      response: { id: 'cred-p2', response: {} },
    })
    expect(within(list).getByText('Unnamed passkey')).toBeTruthy()
  })

  it('says nothing when the person cancels the browser dialog, and explains a refusal', async () => {
    fakeApi({
      'GET /passkey/list-user-passkeys': { body: [] },
      'GET /passkey/generate-register-options': { body: { challenge: 'abc' } },
      'POST /passkey/verify-registration': {
        status: 400,
        body: { code: 'PREVIOUSLY_REGISTERED', message: 'Previously registered' },
      },
    })
    webauthn.startRegistration.mockRejectedValueOnce(notAllowed())
    const { user } = renderWithProviders(<PasskeysSection />)
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeTruthy())
    expect(screen.queryByRole('alert')).toBeNull()
    webauthn.startRegistration.mockResolvedValueOnce({ id: 'x', response: {} })
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }))
    expect((await screen.findByRole('alert')).textContent).toContain('already registered')
  })

  it('renames and removes a passkey', async () => {
    let passkeys = [passkey('p1', 'Laptop')]
    const api = fakeApi({
      'GET /passkey/list-user-passkeys': () => ({ body: passkeys }),
      'POST /passkey/update-passkey': () => {
        passkeys = [passkey('p1', 'Work laptop')]
        return { body: { passkey: passkeys[0] } }
      },
      'POST /passkey/delete-passkey': () => {
        passkeys = []
        return { body: { status: true } }
      },
    })
    const { user } = renderWithProviders(<PasskeysSection />)
    await user.click(await screen.findByRole('button', { name: 'Rename Laptop' }))
    const name = screen.getByRole('textbox', { name: 'Name' })
    await user.clear(name)
    await user.type(name, 'Work laptop')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect((await screen.findByRole('status')).textContent).toContain('now called Work laptop')
    expect(api.to('POST', '/passkey/update-passkey')[0]?.body).toEqual({ id: 'p1', name: 'Work laptop' })
    await user.click(screen.getByRole('button', { name: 'Remove Work laptop' }))
    expect(api.to('POST', '/passkey/delete-passkey')).toHaveLength(0)
    await user.click(screen.getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(screen.getByText('You have no passkey yet.')).toBeTruthy())
    expect(api.to('POST', '/passkey/delete-passkey')[0]?.body).toEqual({ id: 'p1' })
  })
})

describe('signing in with a passkey', () => {
  it('signs in with the button and goes where the sign-in was asked from', async () => {
    const api = fakeApi({
      'GET /passkey/generate-authenticate-options': { body: { challenge: 'xyz', rpId: 'localhost' } },
      'POST /passkey/verify-authentication': { body: { session: { id: 's1' }, user: { id: 'u1' } } },
    })
    webauthn.startAuthentication.mockResolvedValue({ id: 'cred-1', response: {} })
    const { user } = renderWithProviders(<PasskeySignIn returnTo="/account/security" />, {
      route: '/sign-in',
      path: '/sign-in',
    })
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }))
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/account/security'))
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'xyz', rpId: 'localhost' },
      useBrowserAutofill: false,
    })
    expect(api.to('POST', '/passkey/verify-authentication')[0]?.body).toEqual({
      response: { id: 'cred-1', response: {} },
    })
  })

  it('waits for a passkey chosen from autofill when the browser offers it', async () => {
    webauthn.autofill = true
    fakeApi({
      'GET /passkey/generate-authenticate-options': { body: { challenge: 'auto' } },
      'POST /passkey/verify-authentication': { body: { session: { id: 's1' }, user: { id: 'u1' } } },
    })
    webauthn.startAuthentication.mockResolvedValue({ id: 'cred-1', response: {} })
    renderWithProviders(<PasskeySignIn returnTo="/account" />, { route: '/sign-in', path: '/sign-in' })
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/account'))
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'auto' },
      useBrowserAutofill: true,
    })
  })

  it('says nothing on arrival when the browser cannot hold the autofill request open', async () => {
    webauthn.autofill = true
    fakeApi({ 'GET /passkey/generate-authenticate-options': { body: { challenge: 'auto' } } })
    // What Chromium answers on a page served from an IP address, which cannot be a passkey's site.
    const cause = Object.assign(new Error('This is an invalid domain.'), { name: 'SecurityError' })
    webauthn.startAuthentication.mockRejectedValue(
      new WebAuthnError({ message: cause.message, code: 'ERROR_INVALID_DOMAIN', cause }),
    )
    renderWithProviders(<PasskeySignIn returnTo="/account" />, { route: '/sign-in', path: '/sign-in' })
    await waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalled())
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeTruthy()
  })

  it('explains a passkey the server does not know', async () => {
    fakeApi({
      'GET /passkey/generate-authenticate-options': { body: { challenge: 'xyz' } },
      'POST /passkey/verify-authentication': {
        status: 401,
        body: { code: 'PASSKEY_NOT_FOUND', message: 'Passkey not found' },
      },
    })
    webauthn.startAuthentication.mockResolvedValue({ id: 'cred-9', response: {} })
    const { user } = renderWithProviders(<PasskeySignIn returnTo="/account" />, {
      route: '/sign-in',
      path: '/sign-in',
    })
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }))
    expect((await screen.findByRole('alert')).textContent).toContain('not registered with any account')
  })
})
