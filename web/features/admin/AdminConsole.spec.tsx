import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { AdminAuditPage } from './AdminAuditPage.js'
import { AdminUserPage } from './AdminUserPage.js'
import { AdminUsersPage, PAGE_SIZE } from './AdminUsersPage.js'
import type { AdminUser } from './admin.api.js'
import { ImpersonationBanner } from './ImpersonationBanner.js'

const person = (n: number, extra: Partial<AdminUser> = {}): AdminUser => ({
  id: `u${n}`,
  email: `person${n}@example.com`,
  name: `Person ${n}`,
  image: null,
  emailVerified: true,
  username: null,
  displayUsername: null,
  role: 'user',
  banned: false,
  banReason: null,
  banExpires: null,
  createdAt: '2026-01-10T09:00:00.000Z',
  updatedAt: '2026-01-10T09:00:00.000Z',
  ...extra,
})

describe('operator console', () => {
  it('lists users a page at a time and searches by email', async () => {
    const everyone = Array.from({ length: 45 }, (_, i) => person(i + 1, i === 0 ? { banned: true } : {}))
    const api = fakeApi({
      'GET /admin/list-users': (call) => {
        const search = call.query.get('searchValue')
        const found = search ? everyone.filter((u) => u.email.includes(search)) : everyone
        const offset = Number(call.query.get('offset'))
        return {
          body: { users: found.slice(offset, offset + Number(call.query.get('limit'))), total: found.length },
        }
      },
    })
    const { user } = renderWithProviders(<AdminUsersPage />)
    expect(await screen.findByRole('heading', { name: '45 users' })).toBeDefined()
    expect(screen.getAllByRole('listitem')).toHaveLength(PAGE_SIZE)
    expect(within(screen.getAllByRole('listitem')[0] as HTMLElement).getByText('Banned')).toBeDefined()
    expect(screen.getByText('1–20 of 45')).toBeDefined()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('21–40 of 45')).toBeDefined()
    expect(api.to('GET', '/admin/list-users').at(-1)?.query.get('offset')).toBe('20')

    await user.type(screen.getByLabelText(/Search/), 'person7@')
    expect(await screen.findByRole('heading', { name: '1 user' })).toBeDefined()
    const last = api.to('GET', '/admin/list-users').at(-1)
    expect(last?.query.get('searchValue')).toBe('person7@')
    expect(last?.query.get('searchField')).toBe('email')
    expect(last?.query.get('offset')).toBe('0')
  })

  it('bans with a reason and an expiry, and removes only after confirmation', async () => {
    let current = person(3)
    const api = fakeApi({
      'GET /admin/get-user': () => ({ body: current }),
      'GET /admin/user-overview': { body: { accounts: [], organizations: [] } },
      'POST /admin/list-user-sessions': { body: { sessions: [] } },
      'GET /admin/user-activity': {
        body: {
          items: [
            {
              id: 'e1',
              type: 'user.profile-updated',
              at: '2026-01-11T09:00:00.000Z',
              ip: null,
              userAgent: null,
              details: { bySupport: true },
            },
          ],
          nextCursor: null,
        },
      },
      'POST /admin/ban-user': () => {
        current = { ...current, banned: true, banReason: 'Spam' }
        return { body: { user: current } }
      },
      'POST /admin/remove-user': { body: { success: true } },
    })
    const { user } = renderWithProviders(<AdminUserPage />, {
      route: '/admin/users/u3',
      path: '/admin/users/:userId',
    })
    expect(await screen.findByRole('heading', { name: 'Person 3', level: 1 })).toBeDefined()
    expect(await screen.findByText('By support')).toBeDefined()
    await user.type(screen.getByLabelText(/Reason/), 'Spam')
    await user.selectOptions(screen.getByLabelText('For how long'), '86400')
    await user.click(screen.getByRole('button', { name: 'Ban Person 3…' }))
    // Banning ends their sessions: it asks first, says so, and the safe answer has focus.
    expect(api.to('POST', '/admin/ban-user')).toHaveLength(0)
    expect(screen.getByText('Ban Person 3 for 1 day?')).toBeDefined()
    expect(screen.getByText(/Every session of theirs ends at once/)).toBeDefined()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }))
    await user.click(screen.getByRole('button', { name: 'Ban Person 3' }))
    await waitFor(() => expect(api.to('POST', '/admin/ban-user')).toHaveLength(1))
    expect(api.to('POST', '/admin/ban-user')[0]?.body).toEqual({
      userId: 'u3',
      banReason: 'Spam',
      banExpiresIn: 86400,
    })
    expect(await screen.findByRole('button', { name: 'Lift the ban' })).toBeDefined()

    await user.click(screen.getByRole('button', { name: 'Remove user…' }))
    expect(api.to('POST', '/admin/remove-user')).toHaveLength(0)
    expect(screen.getByText('Remove person3@example.com?')).toBeDefined()
    // Cancel has focus: a second Enter or a stray tap erases nobody.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }))
    await user.click(screen.getByRole('button', { name: 'Remove Person 3' }))
    await waitFor(() => expect(api.to('POST', '/admin/remove-user')).toHaveLength(1))
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/admin/users')
  })

  it('asks before acting as someone or ending their sessions, naming what follows', async () => {
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'
    const session = (id: string) => ({
      id,
      token: `t-${id}`,
      userId: 'u4',
      userAgent: firefox,
      ipAddress: '203.0.113.9',
      createdAt: '2026-01-11T09:00:00.000Z',
      updatedAt: '2026-01-11T09:00:00.000Z',
      expiresAt: '2026-01-18T09:00:00.000Z',
      impersonatedBy: null,
    })
    const api = fakeApi({
      'GET /admin/get-user': { body: person(4) },
      'GET /admin/user-overview': { body: { accounts: [], organizations: [] } },
      'POST /admin/list-user-sessions': { body: { sessions: [session('s1'), session('s2')] } },
      'GET /admin/user-activity': { body: { items: [], nextCursor: null } },
      'POST /admin/revoke-user-sessions': { body: { success: true } },
      'POST /admin/revoke-user-session': { body: { success: true } },
      'POST /admin/impersonate-user': { body: { session: {}, user: {} } },
    })
    const { user } = renderWithProviders(<AdminUserPage />, {
      route: '/admin/users/u4',
      path: '/admin/users/:userId',
    })
    // A way back to the directory.
    expect((await screen.findByRole('link', { name: '← All users' })).getAttribute('href')).toBe(
      '/admin/users',
    )

    const sessions = await screen.findByRole('region', { name: 'Sessions' })
    await user.click(within(sessions).getAllByRole('button', { name: /^End…/ })[0] as HTMLElement)
    expect(
      within(sessions).getByText(/Firefox on Windows is signed out and must sign in again/),
    ).toBeDefined()
    expect(api.to('POST', '/admin/revoke-user-session')).toHaveLength(0)
    await user.click(within(sessions).getByRole('button', { name: 'End session' }))
    await waitFor(() => expect(api.to('POST', '/admin/revoke-user-session')).toHaveLength(1))

    await user.click(within(sessions).getByRole('button', { name: 'End every session…' }))
    expect(within(sessions).getByText('End every session of Person 4?')).toBeDefined()
    expect(within(sessions).getByText(/All 2 of their devices are signed out/)).toBeDefined()
    expect(api.to('POST', '/admin/revoke-user-sessions')).toHaveLength(0)
    await user.click(within(sessions).getByRole('button', { name: 'End every session' }))
    await waitFor(() => expect(api.to('POST', '/admin/revoke-user-sessions')).toHaveLength(1))

    await user.click(screen.getByRole('button', { name: 'Impersonate for an hour…' }))
    expect(screen.getByText('Act as Person 4 for an hour?')).toBeDefined()
    expect(screen.getByText(/recorded as support acting on their behalf/)).toBeDefined()
    expect(api.to('POST', '/admin/impersonate-user')).toHaveLength(0)
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }))
    await user.click(screen.getByRole('button', { name: 'Impersonate Person 4' }))
    await waitFor(() => expect(api.to('POST', '/admin/impersonate-user')).toHaveLength(1))
  })

  it('shows sign-in accounts, organizations and history in words, and sends a reset link', async () => {
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'
    const api = fakeApi({
      'GET /admin/get-user': { body: person(5) },
      'GET /admin/user-overview': {
        body: {
          accounts: [
            { id: 'a1', providerId: 'credential', accountId: 'u5', createdAt: '2026-01-10T09:00:00.000Z' },
            { id: 'a2', providerId: 'github', accountId: 'gh-4242', createdAt: '2026-01-12T09:00:00.000Z' },
          ],
          organizations: [{ id: 'o1', name: 'Acme', slug: 'acme', role: 'admin,member' }],
        },
      },
      'POST /admin/list-user-sessions': { body: { sessions: [] } },
      'GET /admin/user-activity': {
        body: {
          items: [
            {
              id: 'e2',
              type: 'user.banned',
              at: '2026-01-12T09:00:00.000Z',
              ip: null,
              userAgent: null,
              details: { reason: 'Spam', expiresAt: null },
            },
            {
              id: 'e1',
              type: 'session.started',
              at: '2026-01-11T09:00:00.000Z',
              ip: '203.0.113.9',
              userAgent: firefox,
              details: { sessionId: 's1' },
            },
            {
              id: 'e0',
              type: 'organization.member-added',
              at: '2026-01-10T09:00:00.000Z',
              ip: null,
              userAgent: null,
              details: { organizationId: 'o1', role: 'member' },
            },
          ],
          nextCursor: null,
        },
      },
      'POST /request-password-reset': {
        body: {
          status: true,
          message: 'If this email exists in our system, check your email for the reset link',
        },
      },
    })
    const { user } = renderWithProviders(<AdminUserPage />, {
      route: '/admin/users/u5',
      path: '/admin/users/:userId',
    })
    const accounts = await screen.findByRole('region', { name: 'Sign-in accounts' })
    expect(accounts.textContent).toContain('Email and password')
    expect(accounts.textContent).toContain('gh-4242')
    const organizations = screen.getByRole('region', { name: 'Organizations' })
    expect(organizations.textContent).toContain('Acme')
    expect(organizations.textContent).toContain('admin, member')
    const history = await screen.findByRole('region', { name: 'History' })
    await waitFor(() => expect(history.textContent).toContain('Banned by an operator: reason Spam'))
    expect(history.textContent).toContain('Signed in from Firefox on Windows')
    expect(history.textContent).toContain('Added to Acme as member')
    expect(history.textContent).not.toContain('user.banned')

    await user.click(screen.getByRole('button', { name: 'Send a password reset link' }))
    expect(await screen.findByText(/A reset link was sent to person5@example.com/)).toBeDefined()
    expect(api.to('POST', '/request-password-reset')[0]?.body).toEqual({
      email: 'person5@example.com',
      redirectTo: '/reset-password',
    })
  })

  it('shows a banner while impersonating, with the way back', async () => {
    const api = fakeApi({ 'POST /admin/stop-impersonating': { body: { session: {}, user: {} } } })
    const expiresAt = new Date(Date.now() + 52 * 60_000 + 30_000).toISOString()
    const { user } = renderWithProviders(
      <ImpersonationBanner name="Ada" impersonatedBy="admin-1" userId="u1" expiresAt={expiresAt} />,
    )
    expect(screen.getByRole('status').textContent).toContain('You are acting as Ada, 52 minutes left.')
    await user.click(screen.getByRole('button', { name: 'Stop impersonating' }))
    await waitFor(() => expect(api.to('POST', '/admin/stop-impersonating')).toHaveLength(1))
    // Back to the page of the person acted as, where the operator came from.
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/admin/users/u1')
  })

  it("shows no banner on a person's own session", () => {
    renderWithProviders(<ImpersonationBanner name="Ada" impersonatedBy={null} />)
    expect(screen.queryByRole('status')).toBeNull()
  })
})

describe('audit view', () => {
  const entry = (overrides: Record<string, unknown>) => ({
    id: 'e1',
    at: '2026-01-11T09:00:00.000Z',
    actor: { type: 'user', id: 'admin-1', email: 'olive@example.com', name: 'Olive Oyl' },
    impersonatedBy: null,
    action: 'user.banned',
    userId: 'u3',
    userEmail: 'bob@example.com',
    userName: 'Bob Baker',
    details: { reason: 'spam', expiresAt: '2026-01-18T09:00:00.000Z' },
    ...overrides,
  })

  it('says each action in words, with its reason and duration, and filters by admin and action', async () => {
    const api = fakeApi({
      'GET /admin/audit': (call) => ({
        body: { actions: [entry({ action: call.query.get('action') || 'user.banned' })], total: 1 },
      }),
    })
    const { user } = renderWithProviders(<AdminAuditPage />)
    expect(await screen.findByRole('heading', { name: '1 action' })).toBeDefined()
    const item = screen.getByRole('listitem')
    expect(item.querySelector('p')?.textContent).toBe('Banned Bob Baker for 7 days: spam')
    expect(item.textContent).not.toContain('user.banned')
    expect(within(item).getByRole('link', { name: 'Bob Baker' }).getAttribute('href')).toBe('/admin/users/u3')
    expect(within(item).getByRole('link', { name: 'Olive Oyl' }).getAttribute('href')).toBe(
      '/admin/users/admin-1',
    )
    await user.selectOptions(screen.getByLabelText('Action'), 'user.role-set')
    await waitFor(() =>
      expect(api.to('GET', '/admin/audit').at(-1)?.query.get('action')).toBe('user.role-set'),
    )
    await user.type(screen.getByLabelText(/Admin/), 'admin-1')
    await waitFor(() => expect(api.to('GET', '/admin/audit').at(-1)?.query.get('actor')).toBe('admin-1'))
  })

  it('shows an erased person as a deleted account, never a link to nothing', async () => {
    fakeApi({
      'GET /admin/audit': {
        body: {
          actions: [
            entry({ userEmail: null, userName: null, details: {} }),
            entry({
              id: 'e2',
              action: 'user.role-set',
              actor: { type: 'user', id: 'gone', email: null, name: null },
              details: { role: 'admin' },
            }),
          ],
          total: 2,
        },
      },
    })
    renderWithProviders(<AdminAuditPage />)
    const [banned, promoted] = await screen.findAllByRole('listitem')
    if (!banned || !promoted) throw new Error('expected two entries')
    expect(banned.querySelector('p')?.textContent).toBe('Banned a deleted account')
    expect(within(banned).queryByRole('link', { name: /u3|deleted/ })).toBeNull()
    expect(promoted.querySelector('p')?.textContent).toBe('Gave Bob Baker the role admin')
    expect(promoted.textContent).toContain('By a deleted account')
    expect(within(promoted).queryByRole('link', { name: /gone/ })).toBeNull()
  })
})
