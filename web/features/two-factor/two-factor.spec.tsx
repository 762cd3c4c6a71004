import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { SignInPage } from '../auth/SignInPage.js'
import { TwoFactorPage } from './TwoFactorPage.js'
import { TwoFactorSection } from './TwoFactorSection.js'

const URI =
  'otpauth://totp/Tessera:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Tessera&digits=6&period=30'
const CODES = ['abcde-12345', 'fghij-67890']
const off = { enabled: false, totp: false, backupCodesLeft: 0, trustedDevices: 0 }
const on = { enabled: true, totp: true, backupCodesLeft: 2, trustedDevices: 0 }

describe('the two-factor section of the Security page', () => {
  it('sets up an authenticator from a QR code or the key, confirms it with a code, then shows the backup codes once', async () => {
    let enabled = false
    const api = fakeApi({
      'GET /two-factor/status': () => ({ body: enabled ? on : off }),
      'POST /two-factor/enable': { body: { method: 'totp', totpURI: URI, backupCodes: CODES } },
      'POST /two-factor/verify-totp': () => {
        enabled = true
        return { body: { token: 't', user: {} } }
      },
    })
    const { user: ui } = renderWithProviders(<TwoFactorSection />)
    await ui.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }))
    await ui.type(screen.getByLabelText('Your password'), 'my password')
    await ui.click(screen.getByRole('button', { name: 'Continue' }))

    const qr = (await screen.findByAltText(/QR code/)) as HTMLImageElement
    expect(qr.src).toMatch(/^data:image\/svg\+xml/)
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeTruthy()
    expect(api.to('POST', '/two-factor/enable')[0]?.body).toEqual({ password: 'my password' })
    // The digits the URI names (6 here), on a phone's number pad.
    expect(screen.getByText('The 6-digit code the app now shows for this account.')).toBeTruthy()
    expect(screen.getByLabelText('Code from the app').getAttribute('inputmode')).toBe('numeric')

    await ui.type(screen.getByLabelText('Code from the app'), '123456')
    await ui.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(await screen.findByText(/Two-factor authentication is on/)).toBeTruthy()
    expect(api.to('POST', '/two-factor/verify-totp')[0]?.body).toEqual({ code: '123456', trustDevice: false })
    const list = screen.getByRole('list', { name: 'Backup codes' })
    expect(list.textContent).toContain('abcde-12345')
    expect(await screen.findByText('On. 2 backup codes left.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Download codes' })).toBeTruthy()
  })

  it('says a wrong password at the password field', async () => {
    fakeApi({
      'GET /two-factor/status': { body: off },
      'POST /two-factor/enable': {
        status: 400,
        body: { code: 'INVALID_PASSWORD', message: 'Invalid password' },
      },
    })
    const { user: ui } = renderWithProviders(<TwoFactorSection />)
    await ui.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }))
    await ui.type(screen.getByLabelText('Your password'), 'wrong one')
    await ui.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() =>
      expect(screen.getByLabelText('Your password').getAttribute('aria-invalid')).toBe('true'),
    )
  })

  it('turns the factor off with the password', async () => {
    let enabled = true
    const api = fakeApi({
      'GET /two-factor/status': () => ({ body: enabled ? on : off }),
      'POST /two-factor/disable': () => {
        enabled = false
        return { body: { status: true } }
      },
    })
    const { user: ui } = renderWithProviders(<TwoFactorSection />)
    await ui.click(await screen.findByRole('button', { name: 'Turn off' }))
    await ui.type(screen.getByLabelText('Your password'), 'my password')
    await ui.click(screen.getAllByRole('button', { name: 'Turn off' })[0] as HTMLElement)
    expect(await screen.findByText('Two-factor authentication is off.')).toBeTruthy()
    expect(api.to('POST', '/two-factor/disable')).toHaveLength(1)
  })
})

describe('the second step after the password', () => {
  it('sends the sign-in page on to the second step when the answer asks for it', async () => {
    fakeApi({
      'POST /sign-in/email': { body: { twoFactorRedirect: true, twoFactorMethods: ['totp', 'otp'] } },
    })
    const { user: ui } = renderWithProviders(<SignInPage />, { route: '/sign-in' })
    await ui.type(screen.getByLabelText('Email or username'), 'ada@example.com')
    await ui.type(screen.getByLabelText('Password'), 'secret secret')
    await ui.click(screen.getByRole('button', { name: 'Sign in' }))
    expect((await screen.findByTestId('location')).textContent).toBe('/two-factor')
  })

  it('checks an authenticator code, trusting the device when asked, and goes where the sign-in was headed', async () => {
    const api = fakeApi({ 'POST /two-factor/verify-totp': { body: { token: 't', user: {} } } })
    const { user: ui } = renderWithProviders(<TwoFactorPage />, {
      route: '/two-factor',
      state: { from: '/account/security', twoFactorMethods: ['totp', 'otp'] },
    })
    await ui.type(screen.getByLabelText('Code from your authenticator app'), '654321')
    await ui.click(screen.getByLabelText('Trust this device for 30 days'))
    await ui.click(screen.getByRole('button', { name: 'Verify' }))
    expect((await screen.findByTestId('location')).textContent).toBe('/account/security')
    expect(api.to('POST', '/two-factor/verify-totp')[0]?.body).toEqual({ code: '654321', trustDevice: true })
  })

  it('emails a code on request and checks it; a wrong code is said at the field', async () => {
    const api = fakeApi({
      'POST /two-factor/send-otp': { body: { status: true } },
      'POST /two-factor/verify-otp': { status: 401, body: { code: 'INVALID_CODE', message: 'Invalid code' } },
    })
    const { user: ui } = renderWithProviders(<TwoFactorPage />, { route: '/two-factor', state: {} })
    await ui.click(screen.getByRole('button', { name: 'Email me a code' }))
    expect(await screen.findByText(/We emailed you a code/)).toBeTruthy()
    expect(api.to('POST', '/two-factor/send-otp')).toHaveLength(1)
    await ui.type(screen.getByLabelText('Code from the email'), '000000')
    await ui.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() =>
      expect(screen.getByLabelText('Code from the email').getAttribute('aria-invalid')).toBe('true'),
    )
  })

  it('takes a backup code instead', async () => {
    const api = fakeApi({ 'POST /two-factor/verify-backup-code': { body: { token: 't', user: {} } } })
    const { user: ui } = renderWithProviders(<TwoFactorPage />, {
      route: '/two-factor',
      state: { from: '/account' },
    })
    await ui.click(screen.getByRole('button', { name: 'Use a backup code' }))
    await ui.type(screen.getByLabelText('Backup code'), 'abcde-12345')
    await ui.click(screen.getByRole('button', { name: 'Verify' }))
    expect((await screen.findByTestId('location')).textContent).toBe('/account')
    expect(api.to('POST', '/two-factor/verify-backup-code')[0]?.body).toMatchObject({ code: 'abcde-12345' })
  })

  it('says what each code is, and offers a phone’s number pad for codes of digits only', async () => {
    fakeApi({})
    const { user: ui } = renderWithProviders(<TwoFactorPage />, {
      route: '/two-factor',
      state: { twoFactorMethods: ['totp'] },
    })
    const totp = screen.getByLabelText('Code from your authenticator app')
    expect(totp.getAttribute('inputmode')).toBe('numeric')
    expect(screen.getByText('The code the app shows for this account now.')).toBeTruthy()
    // The field keeps its limit, but a code's length is not news: no "Up to 64 characters".
    expect(screen.queryByText(/Up to \d+ characters/)).toBeNull()
    await ui.click(screen.getByRole('button', { name: 'Use a backup code' }))
    // Backup codes hold letters: the full keyboard.
    expect(screen.getByLabelText('Backup code').getAttribute('inputmode')).toBeNull()
    expect(screen.getByText('One of the backup codes you saved. Each works once.')).toBeTruthy()
  })
})
