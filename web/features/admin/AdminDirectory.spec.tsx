import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { AdminUserPage } from './AdminUserPage.js'
import { AdminUsersPage } from './AdminUsersPage.js'
import type { AdminUser } from './admin.api.js'

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

describe('the operator directory', () => {
  it('shows each person’s status and when they joined, in a stated order', async () => {
    fakeApi({
      'GET /admin/list-users': {
        body: {
          users: [person(1, { banned: true, emailVerified: false, role: 'user,admin' }), person(2)],
          total: 2,
        },
      },
    })
    renderWithProviders(<AdminUsersPage />)
    expect(await screen.findByRole('heading', { name: '2 users' })).toBeDefined()
    expect(screen.getByText('Everyone, newest first.')).toBeDefined()
    const [first, second] = screen.getAllByRole('listitem') as [HTMLElement, HTMLElement]
    for (const status of ['Banned', 'Unverified', 'Admin'])
      expect(within(first).getByText(status)).toBeDefined()
    expect(within(second).queryByText(/Banned|Unverified|Admin/)).toBeNull()
    expect(
      within(first)
        .getByText(/Joined/)
        .querySelector('time'),
    ).not.toBeNull()
  })

  it('asks the server for one status and one order, from the first page', async () => {
    const api = fakeApi({
      'GET /admin/list-users': (call) => ({
        body: {
          users: Array.from({ length: 20 }, (_, i) => person(i + 1)),
          total: 45,
          offset: Number(call.query.get('offset')),
        },
      }),
    })
    const { user } = renderWithProviders(<AdminUsersPage />)
    await screen.findByRole('heading', { name: '45 users' })
    const latest = () => api.to('GET', '/admin/list-users').at(-1)?.query
    expect(latest()?.get('sortBy')).toBe('createdAt')
    expect(latest()?.get('sortDirection')).toBe('desc')
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('21–40 of 45')).toBeDefined()

    await user.selectOptions(screen.getByLabelText('Show'), 'banned')
    expect(await screen.findByText('Banned, newest first.')).toBeDefined()
    expect(latest()?.get('filterField')).toBe('banned')
    expect(latest()?.get('filterValue')).toBe('true')
    expect(latest()?.get('offset')).toBe('0')

    await user.selectOptions(screen.getByLabelText('Order'), 'name')
    expect(await screen.findByText('Banned, name, a to z.')).toBeDefined()
    expect(latest()?.get('sortBy')).toBe('name')
    expect(latest()?.get('sortDirection')).toBe('asc')
    expect(latest()?.get('filterField')).toBe('banned')

    await user.selectOptions(screen.getByLabelText('Show'), 'unverified')
    expect(latest()?.get('filterField')).toBe('emailVerified')
    expect(latest()?.get('filterValue')).toBe('false')
    await user.selectOptions(screen.getByLabelText('Show'), 'admin')
    expect(latest()?.get('filterField')).toBe('role')
    expect(latest()?.get('filterOperator')).toBe('contains')
  })

  it('says when each person was last seen, or that they never signed in, and sorts by it or by role', async () => {
    const api = fakeApi({
      'GET /admin/list-users': {
        body: {
          users: [person(1, { lastSeenAt: '2026-01-12T08:00:00.000Z' }), person(2, { lastSeenAt: null })],
          total: 2,
        },
      },
    })
    const { user } = renderWithProviders(<AdminUsersPage />)
    await screen.findByRole('heading', { name: '2 users' })
    const [seen, never] = screen.getAllByRole('listitem') as [HTMLElement, HTMLElement]
    const lastSeen = within(seen)
      .getByText(/Last seen/)
      .querySelector('time')
    expect(lastSeen?.getAttribute('datetime')).toBe('2026-01-12T08:00:00.000Z')
    expect(within(never).getByText(/Never signed in/)).toBeDefined()
    expect(within(never).queryByText(/Last seen/)).toBeNull()

    const latest = () => api.to('GET', '/admin/list-users').at(-1)?.query
    await user.selectOptions(screen.getByLabelText('Order'), 'seen')
    expect(await screen.findByText('Everyone, recently seen first.')).toBeDefined()
    expect(latest()?.get('sortBy')).toBe('lastSeenAt')
    expect(latest()?.get('sortDirection')).toBe('desc')
    await user.selectOptions(screen.getByLabelText('Order'), 'role')
    expect(await screen.findByText('Everyone, role, a to z.')).toBeDefined()
    expect(latest()?.get('sortBy')).toBe('role')
    expect(latest()?.get('sortDirection')).toBe('asc')
  })

  it("shows on a person's page when they were last seen", async () => {
    fakeApi({
      'GET /admin/get-user': { body: person(3, { lastSeenAt: '2026-01-12T08:00:00.000Z' }) },
      'GET /admin/user-overview': { body: { accounts: [], organizations: [] } },
      'POST /admin/list-user-sessions': { body: { sessions: [] } },
      'GET /admin/user-activity': { body: { items: [], nextCursor: null } },
    })
    renderWithProviders(<AdminUserPage />, { route: '/admin/users/u3', path: '/admin/users/:userId' })
    const term = await screen.findByText('Last seen')
    expect(term.tagName).toBe('DT')
    expect(term.nextElementSibling?.querySelector('time')?.getAttribute('datetime')).toBe(
      '2026-01-12T08:00:00.000Z',
    )
  })
})
