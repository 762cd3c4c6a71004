import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { OAuthConsentPage } from './OAuthConsentPage.js'

const SIGNED = 'client_id=notes&scope=openid+email+offline_access&state=st&exp=1&sig=abc'

const openConsent = (client: Record<string, unknown>, signedIn: unknown = null) => {
  fakeApi({
    'GET /oauth2/public-client': { body: { client_id: 'notes', ...client } },
    'GET /get-session': { body: signedIn },
  })
  return renderWithProviders(<OAuthConsentPage />, {
    route: `/oauth/consent?${SIGNED}`,
    path: '/oauth/consent',
  })
}

describe('the consent page', () => {
  it('names the application, its owner, its logo and links, and the scopes in words', async () => {
    openConsent({
      client_name: 'Notes',
      owner_type: 'user',
      owner: 'Ada Lovelace',
      logo_uri: 'https://notes.example/logo.png',
      policy_uri: 'https://notes.example/privacy',
      tos_uri: 'https://notes.example/terms',
    })
    await screen.findByRole('heading', { name: 'Notes wants to use your account' })
    expect(screen.getByText('Registered by Ada Lovelace, a person with an account here.')).toBeTruthy()
    expect(screen.getByRole('img', { name: 'Notes logo' }).getAttribute('src')).toBe(
      'https://notes.example/logo.png',
    )
    expect(screen.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe(
      'https://notes.example/privacy',
    )
    expect(screen.getByRole('link', { name: 'Terms of service' }).getAttribute('href')).toBe(
      'https://notes.example/terms',
    )
    expect(screen.getByText('See your email address')).toBeTruthy()
    expect(screen.getByText('Stay connected while you are away')).toBeTruthy()
  })

  it('says when the operator registered it, and when nobody vouched for it', async () => {
    const { unmount } = openConsent({ client_name: 'Console', owner_type: 'operator' })
    expect(await screen.findByText('Registered by the operator of this service.')).toBeTruthy()
    unmount()
    openConsent({ client_name: 'Stranger', owner_type: 'dynamic' })
    expect(await screen.findByText('It registered itself: nobody here has checked who runs it.')).toBeTruthy()
  })

  it('makes no link or image of an address that is not the web’s', async () => {
    openConsent({
      client_name: 'Trap',
      owner_type: 'dynamic',
      logo_uri: 'javascript:alert(1)',
      policy_uri: 'javascript:alert(1)',
    })
    await screen.findByRole('heading', { name: 'Trap wants to use your account' })
    expect(screen.queryByRole('img')).toBeNull()
    expect(screen.queryByRole('link', { name: 'Privacy policy' })).toBeNull()
  })

  it('names the account the application would get, with a way to sign in as another first', async () => {
    openConsent(
      { client_name: 'Notes', owner_type: 'operator' },
      { user: { name: 'Ada Lovelace', email: 'ada@example.com' }, session: {} },
    )
    const account = await screen.findByText(/You are signed in as/)
    expect(account.textContent).toBe(
      'You are signed in as Ada Lovelace (ada@example.com). Use another account',
    )
    // The login page takes the same signed request, so the authorization goes on after that sign-in.
    expect(screen.getByRole('link', { name: 'Use another account' }).getAttribute('href')).toBe(
      `/oauth/login?${SIGNED}`,
    )
  })

  it('names nobody when no session is found', async () => {
    openConsent({ client_name: 'Notes', owner_type: 'operator' })
    await screen.findByText('Registered by the operator of this service.')
    expect(screen.queryByText(/You are signed in as/)).toBeNull()
    expect(screen.queryByRole('link', { name: 'Use another account' })).toBeNull()
  })
})
