import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { OAuthConsentPage } from './OAuthConsentPage.js'

const SIGNED = 'client_id=notes&scope=openid+email+offline_access&state=st&exp=1&sig=abc'

const openConsent = (client: Record<string, unknown>) => {
  fakeApi({ 'GET /oauth2/public-client': { body: { client_id: 'notes', ...client } } })
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
})
