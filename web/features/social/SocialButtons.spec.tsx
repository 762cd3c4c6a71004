import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { SocialButtons } from './SocialButtons.js'
import * as requests from './social.requests.js'

afterEach(() => vi.restoreAllMocks())

describe('social sign-in buttons', () => {
  it('offers a button per configured provider and sends the browser to the provider', async () => {
    const api = fakeApi({
      'GET /providers': {
        body: [
          { id: 'github', name: 'GitHub' },
          { id: 'acme', name: 'Acme' },
        ],
      },
      'POST /sign-in/social': { body: { url: 'https://idp.example/authorize?x=1', redirect: false } },
    })
    const went = vi.spyOn(requests, 'goTo').mockImplementation(() => {})
    const { user } = renderWithProviders(<SocialButtons returnTo="/account" />, { route: '/sign-in' })
    await user.click(await screen.findByRole('button', { name: 'Continue with Acme' }))
    expect(screen.getByRole('button', { name: 'Continue with GitHub' })).toBeTruthy()
    await waitFor(() => expect(went).toHaveBeenCalledWith('https://idp.example/authorize?x=1'))
    expect(api.to('POST', '/sign-in/social')[0]?.body).toMatchObject({
      provider: 'acme',
      callbackURL: '/account',
      errorCallbackURL: '/sign-in',
    })
  })

  it('shows nothing without providers', async () => {
    const api = fakeApi({ 'GET /providers': { body: [] } })
    const { container } = renderWithProviders(<SocialButtons returnTo="/account" />, { route: '/sign-in' })
    await waitFor(() => expect(api.to('GET', '/providers')).toHaveLength(1))
    expect(container.querySelector('button')).toBeNull()
  })

  it("says in words what went wrong when the provider's callback failed", async () => {
    fakeApi({ 'GET /providers': { body: [{ id: 'acme', name: 'Acme' }] } })
    renderWithProviders(<SocialButtons returnTo="/account" />, { route: '/sign-in?error=account_not_linked' })
    expect((await screen.findByRole('alert')).textContent).toContain(
      'An account with this email already exists',
    )
  })
})
