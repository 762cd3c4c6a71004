import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '../../app/App.js'
import { api as apiSlice } from '../../app/api.js'
import { fakeApi } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { renderWithProviders } from '../../test/render.js'
import type { SignedIn } from './session.api.js'

describe('a session ended on another device', () => {
  afterEach(() => sessionStorage.clear())

  it('says why at sign-in, keeps the edit, and offers it again after signing back in', {
    timeout: 30_000,
  }, async () => {
    let session: SignedIn | null = signedInAs()
    const api = fakeApi({
      'GET /get-session': () => ({ body: session }),
      'POST /update-user': () => {
        if (session) return { body: { status: true } }
        return { status: 401, body: { code: 'UNAUTHORIZED', message: 'Unauthorized' } }
      },
      'POST /sign-in/email': () => {
        session = signedInAs()
        return { body: { redirect: false, token: 't', user: session.user } }
      },
    })
    const { user } = renderWithProviders(<App />, { route: '/account', path: '*' })
    const name = await screen.findByLabelText('Name', {}, { timeout: 10_000 })
    // Signed out elsewhere while typing.
    session = null
    await user.clear(name)
    await user.type(name, 'Ada King')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))

    expect(await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 5000 })).toBeTruthy()
    expect(screen.getByText(/Your session ended \(signed out on another device, or expired\)/)).toBeTruthy()
    await user.type(screen.getByLabelText('Email or username'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'correct horse')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))

    // Back on the profile, the edit is there, said so, and saves.
    const again = (await screen.findByLabelText('Name', {}, { timeout: 5000 })) as HTMLInputElement
    expect(again.value).toBe('Ada King')
    expect(screen.getByText(/Your session ended before these changes were saved/)).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('Your profile is saved.')).toBeTruthy()
    const saves = api.to('POST', '/update-user')
    expect(saves.at(-1)?.body).toEqual({ name: 'Ada King' })
    expect(sessionStorage.length).toBe(0)
  })

  it('says so too when coming back to the tab finds the session gone before any save', async () => {
    let session: SignedIn | null = signedInAs()
    fakeApi({ 'GET /get-session': () => ({ body: session }) })
    const { store } = renderWithProviders(<App />, { route: '/account', path: '*' })
    await screen.findByLabelText('Name', {}, { timeout: 10_000 })
    // Signed out elsewhere; the tab regains focus and get-session answers "nobody", with no 401.
    session = null
    store.dispatch(apiSlice.internalActions.onFocus())

    expect(await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 5000 })).toBeTruthy()
    expect(screen.getByText(/Your session ended \(signed out on another device, or expired\)/)).toBeTruthy()
  })
})
