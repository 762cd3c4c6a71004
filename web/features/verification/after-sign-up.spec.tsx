import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { App } from '../../app/App.js'
import { fakeApi } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { renderWithProviders } from '../../test/render.js'
import { CheckEmailPage } from './CheckEmailPage.js'

const config = (sendOnSignUp: boolean) => ({
  'GET /portal-config': {
    body: {
      emailVerification: { sendOnSignUp, required: false },
      deleteUser: { enabled: true, immediate: false },
      changeEmail: { enabled: true },
    },
  },
})

describe('after sign-up', () => {
  it('says nothing was sent when the deployment does not mail on sign-up; the first link is "a link"', async () => {
    fakeApi({ ...config(false), 'POST /send-verification-email': { body: { status: true } } })
    const { user } = renderWithProviders(<CheckEmailPage />, {
      route: '/check-email',
      state: { email: 'ada@example.com', signedIn: true },
    })
    expect(await screen.findByText(/ask for a link below/)).toBeTruthy()
    // Signed in by the sign-up: their account is next, not a sign-in.
    expect(screen.getByRole('link', { name: 'Continue to your account' })).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Continue to sign in' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Send me the link' }))
    expect(
      await screen.findByText('We have sent a link to ada@example.com. It works for one hour.'),
    ).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Send me the link' }))
    expect(
      await screen.findByText('We have sent a new link to ada@example.com. It works for one hour.'),
    ).toBeTruthy()
  })

  it('says the link is sent when the deployment mails on sign-up, and offers sign-in when not signed in', async () => {
    fakeApi(config(true))
    renderWithProviders(<CheckEmailPage />, { route: '/check-email', state: { email: 'ada@example.com' } })
    expect(await screen.findByText(/We have sent a link to/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Continue to sign in' })).toBeTruthy()
  })

  it('nudges an unverified person on every account page, not on Email which says it already', async () => {
    fakeApi({
      'GET /get-session': { body: signedInAs({ emailVerified: false }) },
      'GET /activity': { body: { items: [], nextCursor: null } },
    })
    renderWithProviders(<App />, { route: '/account/activity', path: '*' })
    expect(await screen.findByText('Confirm your email address')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Confirm it on the Email page' }).getAttribute('href')).toBe(
      '/account/email',
    )
  })

  it('does not nudge a verified person', async () => {
    fakeApi({
      'GET /get-session': { body: signedInAs({ emailVerified: true }) },
      'GET /activity': { body: { items: [], nextCursor: null } },
    })
    renderWithProviders(<App />, { route: '/account/activity', path: '*' })
    expect(await screen.findByRole('heading', { name: 'Activity', level: 1 })).toBeTruthy()
    expect(screen.queryByText('Confirm your email address')).toBeNull()
  })
})
