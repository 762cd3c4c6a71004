import { render } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { MemoryRouter, Outlet, Route, Routes, useLocation } from 'react-router'
import { makeStore } from '../../app/store.js'
import { signedInAs } from '../../test/fixtures.js'
import type { SignedIn } from '../session/session.api.js'
import { AcceptInvitationPage } from './AcceptInvitationPage.js'
import { InvitationsPage } from './InvitationsPage.js'
import { MembersPage } from './MembersPage.js'
import { OrganizationActivityPage } from './OrganizationActivityPage.js'
import { OrganizationApiKeysPage } from './OrganizationApiKeysPage.js'
import { OrganizationLayout } from './OrganizationLayout.js'
import { OrganizationSettingsPage } from './OrganizationSettingsPage.js'
import { OrganizationsPage } from './OrganizationsPage.js'
import type { FullOrganization, Invitation, Member, Team } from './organizations.api.js'
import { TeamsPage } from './TeamsPage.js'
import type { Viewer } from './viewer.api.js'

/// The organizations pages mounted as App.tsx mounts them, under a signed-in person, with a probe
/// for every other address (what the pages navigate to, and with what state).

const Probe = () => {
  const location = useLocation()
  return (
    <output data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {`${location.pathname}${location.search}`}
    </output>
  )
}

export const withActiveOrganization = (signedIn: SignedIn, organizationId: string | null): SignedIn => {
  Object.assign(signedIn.session, { activeOrganizationId: organizationId })
  return signedIn
}

export const renderOrganizations = (
  route: string,
  options: { signedIn?: SignedIn; state?: unknown } = {},
) => {
  const signedIn = options.signedIn ?? signedInAs()
  const user = userEvent.setup()
  const [pathname = '/', query] = route.split('?')
  const result = render(
    <Provider store={makeStore()}>
      <MemoryRouter initialEntries={[{ pathname, search: query ? `?${query}` : '', state: options.state }]}>
        <Routes>
          <Route element={<Outlet context={signedIn} />}>
            <Route path="/account/organizations" element={<OrganizationsPage />} />
            <Route path="/account/organizations/:organizationId" element={<OrganizationLayout />}>
              <Route index element={<MembersPage />} />
              <Route path="invitations" element={<InvitationsPage />} />
              <Route path="teams" element={<TeamsPage />} />
              <Route path="activity" element={<OrganizationActivityPage />} />
              <Route path="api-keys" element={<OrganizationApiKeysPage />} />
              <Route path="settings" element={<OrganizationSettingsPage />} />
            </Route>
          </Route>
          <Route path="/accept-invitation/:id" element={<AcceptInvitationPage />} />
          <Route path="*" element={<Probe />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  )
  return { user, ...result }
}

export const member = (id: string, role: string, name: string, email: string): Member => ({
  id: `member-${id}`,
  organizationId: 'org-1',
  userId: id,
  role,
  createdAt: '2026-01-02T09:00:00.000Z',
  user: { id, name, email, image: null },
})

export const ADA = member('user-1', 'owner', 'Ada Lovelace', 'ada@example.com')
export const GRACE = member('user-2', 'member', 'Grace Hopper', 'grace@example.com')

export const TEAM: Team = {
  id: 'team-1',
  name: 'Engines',
  organizationId: 'org-1',
  createdAt: '2026-01-02T09:00:00.000Z',
}

export const PENDING: Invitation = {
  id: 'inv-1',
  organizationId: 'org-1',
  email: 'katherine@example.com',
  role: 'admin',
  status: 'pending',
  teamId: 'team-1',
  inviterId: 'user-1',
  expiresAt: '2099-01-03T09:00:00.000Z',
}

export const fullOrganization = (overrides: Partial<FullOrganization> = {}): FullOrganization => ({
  id: 'org-1',
  name: 'Analytical Engines',
  slug: 'analytical-engines',
  logo: null,
  createdAt: '2026-01-02T09:00:00.000Z',
  members: [ADA, GRACE],
  invitations: [PENDING],
  teams: [TEAM],
  ...overrides,
})

const ALL_ACTIONS = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'read', 'update', 'delete'],
  apiKey: ['create', 'read', 'update', 'delete'],
  activity: ['read'],
}

/** What GET /organization/viewer answers an owner (default) or a plain member. */
export const viewerOf = (
  role: 'owner' | 'member',
  features: Partial<Viewer['features']> = {},
): { body: Viewer } => ({
  body: {
    role,
    permissions: role === 'owner' ? ALL_ACTIONS : { ac: ['read'] },
    features: { teams: true, customRoles: false, ...features },
  },
})

/** What GET /organization/team-roster answers: teams with the user ids in them. */
export const rosterOf = (teams: readonly (Team & { userIds?: string[] })[]) => ({
  body: teams.map(({ userIds = [], ...team }) => ({
    ...team,
    members: userIds.map((userId) => ({
      id: `tm-${team.id}-${userId}`,
      teamId: team.id,
      userId,
      createdAt: '',
    })),
  })),
})
