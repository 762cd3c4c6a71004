import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import type { SignedIn } from '../session/session.api.js'
import { describePermission } from './CustomRoles.js'
import {
  fullOrganization,
  renderOrganizations,
  rosterOf,
  viewerOf,
  withActiveOrganization,
} from './organizations.fixture.js'

/// The invitation preview for a signed-out invitee, the signed-in person's own invitations, the
/// active team, and custom roles.

const refusal = (status: number, code: string, message = '') => ({ status, body: { code, message } })

const withActiveTeam = (signedIn: SignedIn, teamId: string | null): SignedIn => {
  Object.assign(signedIn.session, { activeTeamId: teamId })
  return signedIn
}

describe('the invitation link, signed out', () => {
  it('tells who invites to what from the preview, before sign-in', async () => {
    const api = fakeApi({
      'GET /get-session': { body: null },
      'GET /organization/invitation-preview': {
        body: {
          organizationName: 'Analytical Engines',
          inviterName: 'Ada Lovelace',
          expiresAt: '2099-01-03T09:00:00.000Z',
        },
      },
    })
    renderOrganizations('/accept-invitation/inv-1')
    expect(await screen.findByRole('heading', { name: 'Join Analytical Engines?', level: 1 })).toBeTruthy()
    expect(screen.getByText(/invited you to join/).textContent).toMatch(
      /^Ada Lovelace invited you to join Analytical Engines\. The invitation works until /,
    )
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy()
    expect(api.to('GET', '/organization/invitation-preview')[0]?.query.get('id')).toBe('inv-1')
  })

  it('says an invitation that can no longer be accepted is no longer valid, without asking to sign in', async () => {
    fakeApi({
      'GET /get-session': { body: null },
      'GET /organization/invitation-preview': refusal(400, 'INVITATION_NOT_FOUND', 'Invitation not found!'),
    })
    renderOrganizations('/accept-invitation/inv-1')
    expect(await screen.findByRole('heading', { name: 'This invitation is no longer valid' })).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull()
  })
})

const INVITED = {
  id: 'inv-7',
  organizationId: 'org-2',
  organizationName: 'Difference Engines',
  email: 'ada@example.com',
  role: 'admin',
  status: 'pending',
  teamId: null,
  inviterId: 'user-3',
  expiresAt: '2099-01-03T09:00:00.000Z',
}

describe('invitations for you', () => {
  it('lists the pending invitations to your address; accepting opens the organization', async () => {
    const api = fakeApi({
      'GET /organization/list': { body: [] },
      'GET /organization/list-user-invitations': { body: [INVITED] },
      'POST /organization/accept-invitation': { body: { invitation: INVITED, member: {} } },
      'GET /organization/get-full-organization': {
        body: fullOrganization({ id: 'org-2', name: 'Difference Engines' }),
      },
    })
    const { user } = renderOrganizations('/account/organizations')
    const list = await screen.findByRole('list', { name: 'Invitations for you' })
    expect(within(list).getByRole('listitem').textContent).toContain('Difference Engines as Admin')
    await user.click(
      within(list).getByRole('button', { name: 'Accept the invitation to Difference Engines' }),
    )
    // On to the organization, its members, saying what happened.
    expect(await screen.findByRole('heading', { name: 'Members', level: 1 })).toBeTruthy()
    expect(
      screen.getByText('You joined Difference Engines. It is now your active organization.'),
    ).toBeTruthy()
    expect(api.to('GET', '/organization/get-full-organization').at(-1)?.query.get('organizationId')).toBe(
      'org-2',
    )
    expect(api.to('POST', '/organization/accept-invitation').map((call) => call.body)).toEqual([
      { invitationId: 'inv-7' },
    ])
  })

  it('declining says so and the invitation leaves the list; a refusal stays next to it', async () => {
    let pending = [INVITED, { ...INVITED, id: 'inv-8', organizationId: 'org-3', organizationName: 'Looms' }]
    const api = fakeApi({
      'GET /organization/list': { body: [] },
      'GET /organization/list-user-invitations': () => ({ body: pending }),
      'POST /organization/reject-invitation': (call) => {
        const { invitationId } = call.body as { invitationId: string }
        if (invitationId === 'inv-8') return refusal(400, 'INVITATION_NOT_FOUND', 'Invitation not found!')
        pending = pending.filter((invitation) => invitation.id !== invitationId)
        return { body: { invitation: { ...INVITED, status: 'rejected' }, member: null } }
      },
    })
    const { user } = renderOrganizations('/account/organizations')
    const list = await screen.findByRole('list', { name: 'Invitations for you' })
    await user.click(
      within(list).getByRole('button', { name: 'Decline the invitation to Difference Engines' }),
    )
    expect(
      (await screen.findByText('You declined the invitation to Difference Engines.')).closest('[role]'),
    ).toBeTruthy()
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    await user.click(within(list).getByRole('button', { name: 'Decline the invitation to Looms' }))
    expect((await within(list).findByRole('alert')).textContent).toBe(
      'This invitation does not exist, has expired, or has already been answered.',
    )
    expect(api.to('POST', '/organization/reject-invitation')).toHaveLength(2)
  })

  it('asks for a verified address before showing any', async () => {
    fakeApi({
      'GET /organization/list': { body: [] },
      'GET /organization/list-user-invitations': refusal(
        403,
        'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION',
        'Email verification required before accepting or rejecting invitation',
      ),
    })
    renderOrganizations('/account/organizations')
    expect(
      await screen.findByText('Verify your email address to see the invitations sent to it.'),
    ).toBeTruthy()
  })
})

describe('the active team', () => {
  const routes = {
    'GET /organization/get-full-organization': {
      body: fullOrganization({
        teams: [
          { id: 'team-1', name: 'Engines', organizationId: 'org-1', createdAt: '' },
          { id: 'team-2', name: 'Looms', organizationId: 'org-1', createdAt: '' },
        ],
      }),
    },
    'GET /organization/viewer': viewerOf('owner'),
    'GET /organization/team-roster': rosterOf([
      { id: 'team-1', name: 'Engines', organizationId: 'org-1', createdAt: '', userIds: ['user-1'] },
      { id: 'team-2', name: 'Looms', organizationId: 'org-1', createdAt: '', userIds: ['user-1'] },
    ]),
    'POST /organization/set-active-team': { body: { id: 'team-2', name: 'Looms' } },
  }

  it('marks the active team and switches to another of your teams', async () => {
    const api = fakeApi(routes)
    const signedIn = withActiveTeam(withActiveOrganization(signedInAs(), 'org-1'), 'team-1')
    const { user } = renderOrganizations('/account/organizations/org-1/teams', { signedIn })
    const engines = await screen.findByRole('region', { name: 'Engines' })
    expect(within(engines).getByText('Your active team')).toBeTruthy()
    expect(within(engines).queryByRole('button', { name: 'Make active team Engines' })).toBeNull()
    const looms = screen.getByRole('region', { name: 'Looms' })
    await user.click(await within(looms).findByRole('button', { name: 'Make active team Looms' }))
    await waitFor(() =>
      expect(api.to('POST', '/organization/set-active-team').map((call) => call.body)).toEqual([
        { teamId: 'team-2' },
      ]),
    )
  })

  it('is not offered in an organization that is not the active one', async () => {
    fakeApi(routes)
    const signedIn = withActiveOrganization(signedInAs(), 'org-2')
    renderOrganizations('/account/organizations/org-1/teams', { signedIn })
    const looms = await screen.findByRole('region', { name: 'Looms' })
    await within(looms).findByRole('list', { name: 'Members of Looms' })
    expect(within(looms).queryByRole('button', { name: /Make active team/ })).toBeNull()
  })
})

const ROLE = {
  id: 'role-1',
  organizationId: 'org-1',
  role: 'auditor',
  permission: { member: ['update'], ac: ['read'] },
  createdAt: '2026-01-02T09:00:00.000Z',
  updatedAt: null,
}

describe('custom roles', () => {
  it('are not shown, nor asked for, where the server has no role routes (dynamic access control off)', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'GET /organization/viewer': viewerOf('owner'),
    })
    renderOrganizations('/account/organizations/org-1/settings')
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy()
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Custom roles' })).toBeNull())
    expect(api.to('GET', '/organization/list-roles')).toEqual([])
  })

  it('lists, creates, changes and deletes roles; a refusal stays with the role', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'GET /organization/viewer': viewerOf('owner', { customRoles: true }),
      'GET /organization/list-roles': { body: [ROLE] },
      'POST /organization/create-role': { body: { success: true, roleData: { ...ROLE, id: 'role-2' } } },
      'POST /organization/update-role': { body: { success: true, roleData: ROLE } },
      'POST /organization/delete-role': refusal(
        400,
        'ROLE_IS_ASSIGNED_TO_MEMBERS',
        'Cannot delete a role that is assigned to members',
      ),
    })
    const { user } = renderOrganizations('/account/organizations/org-1/settings')
    const roles = await screen.findByRole('list', { name: 'Custom roles' })
    expect(within(roles).getByRole('listitem').textContent).toContain('Members: update · Roles: read')

    const create = screen.getByRole('form', { name: 'Create a role' })
    await user.type(within(create).getByLabelText('Role name'), 'billing')
    await user.click(within(create).getByLabelText('Invitations: create'))
    await user.click(within(create).getByLabelText('Teams: update'))
    await user.click(within(create).getByRole('button', { name: 'Create role' }))
    expect(await within(create).findByText('The role billing is created.')).toBeTruthy()

    await user.click(within(roles).getByRole('button', { name: 'Change permissions of auditor' }))
    await user.click(within(roles).getByLabelText('Members: update'))
    await user.click(within(roles).getByLabelText('Organization: update'))
    await user.click(within(roles).getByRole('button', { name: 'Save auditor' }))
    await waitFor(() => expect(within(roles).queryByRole('button', { name: 'Save auditor' })).toBeNull())

    await user.click(within(roles).getByRole('button', { name: 'Delete auditor' }))
    expect((await within(roles).findByRole('alert')).textContent).toBe(
      'Cannot delete a role that is assigned to members',
    )
    expect(api.to('POST', '/organization/create-role').map((call) => call.body)).toEqual([
      { organizationId: 'org-1', role: 'billing', permission: { invitation: ['create'], team: ['update'] } },
    ])
    expect(api.to('POST', '/organization/update-role').map((call) => call.body)).toEqual([
      {
        organizationId: 'org-1',
        roleId: 'role-1',
        data: { permission: { ac: ['read'], organization: ['update'] } },
      },
    ])
    expect(api.to('POST', '/organization/delete-role').map((call) => call.body)).toEqual([
      { organizationId: 'org-1', roleId: 'role-1' },
    ])
  })

  it('describes a role by its statements', () => {
    expect(describePermission({})).toBe('No permissions')
    expect(describePermission({ team: ['create', 'delete'], organization: ['update'] })).toBe(
      'Organization: update · Teams: create, delete',
    )
  })
})
