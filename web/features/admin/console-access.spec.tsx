import { screen, waitFor, within } from '@testing-library/react'
import { Outlet, Route, Routes } from 'react-router'
import { describe, expect, it } from 'vitest'
import { AccountLayout } from '../../app/layouts.js'
import type { AppStore } from '../../app/store.js'
import { fakeApi, type Reply } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { renderWithProviders } from '../../test/render.js'
import type { SignedIn } from '../session/session.api.js'

/// The account menu offers the operator console to exactly those the server lets use it: it asks
/// POST /admin/has-permission for what the console's pages need, whatever the role says.

const openAccount = (signedIn: SignedIn, answer: Reply) => {
  const api = fakeApi({ 'POST /admin/has-permission': answer })
  // The layout as App.tsx mounts it: below the signed-in person's outlet.
  const view = renderWithProviders(
    <Routes>
      <Route element={<Outlet context={signedIn} />}>
        <Route element={<AccountLayout />}>
          <Route path="account" element={<h1>Profile</h1>} />
        </Route>
      </Route>
    </Routes>,
    { route: '/account', path: '/*' },
  )
  return { api, ...view }
}

/** Waits until the question to the server has its answer (or its failure) in the store. */
const answered = (store: AppStore) =>
  waitFor(() => {
    const asked = Object.values(store.getState().api.queries).find(
      (query) => query?.endpointName === 'consoleAccess',
    )
    expect(['fulfilled', 'rejected']).toContain(asked?.status)
  })

const menuLinks = () =>
  within(screen.getByRole('navigation', { name: 'Account' }))
    .getAllByRole('link')
    .map((link) => link.textContent)

describe('the operator console in the account menu', () => {
  it('shows for a user the server lets in though their role is not admin (listed in adminUserIds)', async () => {
    const { api } = openAccount(signedInAs({ role: 'user' }), { body: { error: null, success: true } })
    await waitFor(() => expect(menuLinks()).toContain('Users'))
    expect(menuLinks().slice(-4)).toEqual(['Users', 'Audit', 'OAuth clients', 'Webhooks'])
    expect(api.to('POST', '/admin/has-permission')[0]?.body).toEqual({ permissions: { user: ['list'] } })
  })

  it('stays hidden for an admin role the server does not let in', async () => {
    const { store } = openAccount(signedInAs({ role: 'admin' }), { body: { error: null, success: false } })
    await answered(store)
    expect(menuLinks()).not.toContain('Users')
    expect(menuLinks()).not.toContain('Audit')
  })

  it('stays hidden when the server cannot be asked', async () => {
    const { store } = openAccount(signedInAs({ role: 'admin' }), {
      status: 500,
      body: { code: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error' },
    })
    await answered(store)
    expect(menuLinks()).toContain('Organizations')
    expect(menuLinks()).not.toContain('Users')
  })
})
