import { cleanup, render, screen } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { MemoryRouter, Outlet, Route, Routes } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { makeStore } from '../../app/store.js'
import { fakeApi } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { CreateApiKeyForm } from '../api-keys/CreateApiKeyForm.js'
import { fullOrganization, renderOrganizations } from '../organizations/organizations.fixture.js'

/// Every account form where a person types something worth keeping survives a session ended
/// elsewhere the same way (use-draft.tsx): the refused save keeps the values in this tab, and the
/// form, mounted again after signing in, starts from them, says so, and forgets them once saved.

const ENDED = { status: 401, body: { code: 'UNAUTHORIZED', message: 'Unauthorized' } }
const RESTORED = /Your session ended before these changes were saved/

const fieldValue = (label: RegExp | string) => (screen.getByLabelText(label) as HTMLInputElement).value

describe('drafts kept across a session ended elsewhere', () => {
  afterEach(() => sessionStorage.clear())

  it('organization settings: the name and slug come back, for that organization only', {
    timeout: 30_000,
  }, async () => {
    let ended = true
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'POST /organization/check-slug': { body: { status: true } },
      'POST /organization/update': () => (ended ? ENDED : { body: fullOrganization({ name: 'Looms' }) }),
    })
    const first = renderOrganizations('/account/organizations/org-1/settings')
    const name = await screen.findByLabelText('Organization name')
    await first.user.clear(name)
    await first.user.type(name, 'Looms')
    await first.user.clear(screen.getByLabelText('Slug'))
    await first.user.type(screen.getByLabelText('Slug'), 'looms')
    await first.user.click(screen.getByRole('button', { name: 'Save' }))
    await expect.poll(() => api.to('POST', '/organization/update').length).toBe(1)
    await expect.poll(() => sessionStorage.length).toBe(1)
    cleanup()

    ended = false
    const again = renderOrganizations('/account/organizations/org-1/settings')
    expect(((await screen.findByLabelText('Organization name')) as HTMLInputElement).value).toBe('Looms')
    expect(fieldValue('Slug')).toBe('looms')
    expect(screen.getByText(RESTORED)).toBeTruthy()
    await again.user.click(screen.getByRole('button', { name: 'Save' }))
    expect((await screen.findByRole('status')).textContent).toBe('The organization is saved.')
    expect(api.to('POST', '/organization/update').at(-1)?.body).toEqual({
      organizationId: 'org-1',
      data: { name: 'Looms', slug: 'looms' },
    })
    expect(sessionStorage.length).toBe(0)
    expect(screen.queryByText(RESTORED)).toBeNull()
  })

  it('the invitation form: the address and role come back, and go once sent', {
    timeout: 30_000,
  }, async () => {
    let ended = true
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'POST /organization/invite-member': () =>
        ended
          ? ENDED
          : { body: { id: 'inv-9', email: 'mary@example.com', role: 'admin', status: 'pending' } },
    })
    const first = renderOrganizations('/account/organizations/org-1/invitations')
    await first.user.type(await screen.findByLabelText('Email address'), 'mary@example.com')
    await first.user.selectOptions(screen.getByLabelText('Role'), 'admin')
    await first.user.click(screen.getByRole('button', { name: 'Send invitation' }))
    await expect.poll(() => sessionStorage.length).toBe(1)
    cleanup()

    ended = false
    const again = renderOrganizations('/account/organizations/org-1/invitations')
    expect(((await screen.findByLabelText('Email address')) as HTMLInputElement).value).toBe(
      'mary@example.com',
    )
    expect(fieldValue('Role')).toBe('admin')
    expect(screen.getByText(RESTORED)).toBeTruthy()
    await again.user.click(screen.getByRole('button', { name: 'Send invitation' }))
    expect((await screen.findByRole('status')).textContent).toContain('Invitation sent to mary@example.com')
    expect(api.to('POST', '/organization/invite-member').at(-1)?.body).toMatchObject({
      email: 'mary@example.com',
      role: 'admin',
    })
    expect(sessionStorage.length).toBe(0)
  })

  it('a new API key: its name, expiry and prefix come back; another person never sees them', {
    timeout: 30_000,
  }, async () => {
    let ended = true
    fakeApi({
      'POST /api-key/create': () =>
        ended ? ENDED : { body: { id: 'k1', name: 'deploy script', key: 'deploy_secret', start: 'deploy' } },
    })
    const mount = (userId: string) => {
      const signedIn = signedInAs()
      signedIn.user.id = userId
      const user = userEvent.setup()
      render(
        <Provider store={makeStore()}>
          <MemoryRouter>
            <Routes>
              <Route element={<Outlet context={signedIn} />}>
                <Route path="/" element={<CreateApiKeyForm onCreated={() => undefined} />} />
              </Route>
            </Routes>
          </MemoryRouter>
        </Provider>,
      )
      return user
    }
    const user = mount('user-1')
    await user.type(screen.getByLabelText('Name'), 'deploy script')
    await user.selectOptions(screen.getByLabelText('Expires after'), String(30 * 86_400))
    await user.type(screen.getByLabelText(/Prefix/), 'deploy_')
    await user.click(screen.getByRole('button', { name: 'Create key' }))
    await expect.poll(() => sessionStorage.length).toBe(1)
    cleanup()

    mount('user-2')
    expect(fieldValue('Name')).toBe('')
    expect(screen.queryByText(RESTORED)).toBeNull()
    cleanup()

    ended = false
    const again = mount('user-1')
    expect(fieldValue('Name')).toBe('deploy script')
    expect(fieldValue('Expires after')).toBe(String(30 * 86_400))
    expect(fieldValue(/Prefix/)).toBe('deploy_')
    expect(screen.getByText(RESTORED)).toBeTruthy()
    await again.click(screen.getByRole('button', { name: 'Create key' }))
    expect(await screen.findByText(/Copy it now/)).toBeTruthy()
    expect(sessionStorage.length).toBe(0)
  })
})
