import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { signedInAs } from '../../test/fixtures.js'
import { descriptionOf } from '../../test/render.js'
import {
  ADA,
  fullOrganization,
  GRACE,
  member,
  PENDING,
  renderOrganizations,
  rosterOf,
  TEAM,
  viewerOf,
  withActiveOrganization,
} from './organizations.fixture.js'

const ORGS = [
  {
    id: 'org-1',
    name: 'Analytical Engines',
    slug: 'analytical-engines',
    createdAt: '2026-01-02T09:00:00.000Z',
  },
  {
    id: 'org-2',
    name: 'Difference Engines',
    slug: 'difference-engines',
    createdAt: '2026-01-03T09:00:00.000Z',
  },
]

const refusal = (status: number, code: string, message = '') => ({ status, body: { code, message } })

describe('the organizations list', () => {
  it('lists the organizations, marks the active one, and switches to another', async () => {
    const api = fakeApi({
      'GET /organization/list': { body: ORGS },
      'POST /organization/set-active': { body: ORGS[1] },
    })
    const { user } = renderOrganizations('/account/organizations', {
      signedIn: withActiveOrganization(signedInAs(), 'org-1'),
    })
    const list = await screen.findByRole('list', { name: 'Your organizations' })
    const [first, second] = within(list).getAllByRole('listitem')
    if (!first || !second) throw new Error('expected two organizations')
    expect(within(first).getByText('Active')).toBeTruthy()
    expect(within(first).queryByRole('button')).toBeNull()
    expect(within(second).queryByText('Active')).toBeNull()
    await user.click(within(second).getByRole('button', { name: 'Make active Difference Engines' }))
    await waitFor(() =>
      expect(api.to('POST', '/organization/set-active').map((call) => call.body)).toEqual([
        { organizationId: 'org-2' },
      ]),
    )
  })

  it('says so when there is none yet', async () => {
    fakeApi({ 'GET /organization/list': { body: [] } })
    renderOrganizations('/account/organizations')
    expect(await screen.findByText(/You do not belong to any organization yet/)).toBeTruthy()
  })

  it('creates one: the slug follows the name, and the new organization opens', async () => {
    const api = fakeApi({
      'GET /organization/list': { body: [] },
      'POST /organization/check-slug': { body: { status: true } },
      'POST /organization/create': { body: { ...ORGS[0], id: 'org-9', name: 'Ada’s Engines, Ltd.' } },
      'GET /organization/get-full-organization': {
        body: fullOrganization({
          id: 'org-9',
          name: 'Ada’s Engines, Ltd.',
          slug: 'adas-engines-ltd',
          members: [ADA],
        }),
      },
    })
    const { user } = renderOrganizations('/account/organizations')
    await user.type(await screen.findByLabelText('Organization name'), 'Ada’s Engines, Ltd.')
    const slug = screen.getByLabelText('Slug') as HTMLInputElement
    expect(slug.value).toBe('adas-engines-ltd')
    // Once typing settles the slug is checked, and the answer is read with the field.
    await waitFor(() => expect(descriptionOf(slug)).toContain('adas-engines-ltd is free.'))
    await user.click(screen.getByRole('button', { name: 'Create organization' }))
    // The new organization opens on its members, saying what happened.
    expect(await screen.findByRole('heading', { name: 'Members', level: 1 })).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe(
      'Ada’s Engines, Ltd. is created, and you are its owner.',
    )
    expect(api.to('GET', '/organization/get-full-organization')[0]?.query.get('organizationId')).toBe('org-9')
    expect(api.to('POST', '/organization/create').map((call) => call.body)).toEqual([
      { name: 'Ada’s Engines, Ltd.', slug: 'adas-engines-ltd' },
    ])
  })

  it('shows a taken slug under the slug field, and checks a malformed one before asking', async () => {
    const api = fakeApi({
      'GET /organization/list': { body: [] },
      'POST /organization/check-slug': refusal(400, 'ORGANIZATION_SLUG_ALREADY_TAKEN'),
      'POST /organization/create': refusal(400, 'ORGANIZATION_ALREADY_EXISTS', 'Organization already exists'),
    })
    const { user } = renderOrganizations('/account/organizations')
    await user.type(await screen.findByLabelText('Organization name'), 'Acme')
    const slug = screen.getByLabelText('Slug')
    await waitFor(() => expect(descriptionOf(slug)).toContain('acme is taken'))
    await user.click(screen.getByRole('button', { name: 'Create organization' }))
    await waitFor(() => expect(slug.getAttribute('aria-invalid')).toBe('true'))
    expect(descriptionOf(slug)).toContain('An organization with this slug already exists.')

    await user.clear(slug)
    await user.type(slug, 'not a slug!')
    await user.click(screen.getByRole('button', { name: 'Create organization' }))
    expect(descriptionOf(slug)).toContain('Use lowercase letters, digits and single dashes')
    expect(api.to('POST', '/organization/create')).toHaveLength(1)
  })
})

describe('members', () => {
  it('lets an owner change a member’s role, and says so next to them', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'POST /organization/update-member-role': { body: { ...GRACE, role: 'admin' } },
    })
    const { user } = renderOrganizations('/account/organizations/org-1')
    await screen.findByRole('heading', { name: 'Members', level: 1 })
    expect(api.to('GET', '/organization/get-full-organization')[0]?.query.get('organizationId')).toBe('org-1')
    const grace = screen.getByRole('listitem', { name: /Grace Hopper/ })
    // Nobody changes their own role here: the reader's row has no role picker.
    const ada = screen.getByRole('listitem', { name: /Ada Lovelace/ })
    expect(within(ada).queryByRole('combobox')).toBeNull()
    // Ada is the only owner: she is told what leaving takes instead of offered a button that fails.
    expect(within(ada).queryByRole('button', { name: 'Leave organization' })).toBeNull()
    expect(within(ada).getByText(/You are the only owner/)).toBeTruthy()

    await user.selectOptions(within(grace).getByLabelText('Role of Grace Hopper'), 'admin')
    await user.click(within(grace).getByRole('button', { name: 'Save role' }))
    expect(await within(grace).findByRole('status')).toHaveProperty(
      'textContent',
      'Grace Hopper is now Admin.',
    )
    expect(api.to('POST', '/organization/update-member-role').map((call) => call.body)).toEqual([
      { organizationId: 'org-1', memberId: 'member-user-2', role: 'admin' },
    ])
  })

  it('shows a refused role change next to the member it concerns', async () => {
    fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'POST /organization/update-member-role': refusal(
        403,
        'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER',
        'You are not allowed to update this member',
      ),
    })
    const { user } = renderOrganizations('/account/organizations/org-1')
    const grace = await screen.findByRole('listitem', { name: /Grace Hopper/ })
    await user.selectOptions(within(grace).getByLabelText('Role of Grace Hopper'), 'owner')
    await user.click(within(grace).getByRole('button', { name: 'Save role' }))
    expect((await within(grace).findByRole('alert')).textContent).toBe(
      'Your role does not allow changing this member’s role.',
    )
  })

  it('removes a member after asking, and keeps focus on the list', async () => {
    let organization = fullOrganization()
    const api = fakeApi({
      'GET /organization/get-full-organization': () => ({ body: organization }),
      'POST /organization/remove-member': () => {
        organization = fullOrganization({ members: [ADA] })
        return { body: { member: GRACE } }
      },
    })
    const { user } = renderOrganizations('/account/organizations/org-1')
    const grace = await screen.findByRole('listitem', { name: /Grace Hopper/ })
    await user.click(within(grace).getByRole('button', { name: 'Remove' }))
    expect(api.to('POST', '/organization/remove-member')).toEqual([])
    const confirm = within(grace).getByRole('button', { name: 'Remove Grace Hopper' })
    // The safe answer has focus: a second Enter does no harm.
    expect(document.activeElement).toBe(within(grace).getByRole('button', { name: 'Cancel' }))
    await user.click(confirm)
    await waitFor(() => expect(screen.queryByRole('listitem', { name: /Grace Hopper/ })).toBeNull())
    expect(api.to('POST', '/organization/remove-member').map((call) => call.body)).toEqual([
      { organizationId: 'org-1', memberIdOrEmail: 'member-user-2' },
    ])
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'People' })))
  })

  it('an owner whose co-owner stepped down meanwhile is refused next to the action', async () => {
    fakeApi({
      'GET /organization/get-full-organization': {
        body: fullOrganization({
          members: [ADA, member('user-3', 'owner', 'Charles Babbage', 'cb@example.com')],
        }),
      },
      'POST /organization/leave': refusal(
        400,
        'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
        'You cannot leave the organization as the only owner',
      ),
    })
    const { user } = renderOrganizations('/account/organizations/org-1')
    const ada = await screen.findByRole('listitem', { name: /Ada Lovelace/ })
    await user.click(within(ada).getByRole('button', { name: 'Leave organization' }))
    await user.click(within(ada).getByRole('button', { name: 'Leave' }))
    expect((await within(ada).findByRole('alert')).textContent).toContain('You are the only owner')
  })

  it('a member who leaves goes back to the list, told what happened', async () => {
    fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization({ members: [ADA, GRACE] }) },
      'POST /organization/leave': { body: GRACE },
      'GET /organization/list': { body: [] },
    })
    const { user } = renderOrganizations('/account/organizations/org-1', {
      signedIn: signedInAs({ id: 'user-2', name: 'Grace Hopper', email: 'grace@example.com' }),
    })
    const grace = await screen.findByRole('listitem', { name: /Grace Hopper/ })
    // A plain member manages nobody: no role pickers, no Remove, and no Activity or invite form.
    expect(screen.queryAllByRole('combobox')).toEqual([])
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Activity' })).toBeNull()
    await user.click(within(grace).getByRole('button', { name: 'Leave organization' }))
    await user.click(within(grace).getByRole('button', { name: 'Leave' }))
    expect(await screen.findByRole('heading', { name: 'Organizations', level: 1 })).toBeTruthy()
    expect(screen.getByText('You left Analytical Engines.').closest('[role="status"]')).toBeTruthy()
  })

  it('an admin may not make owners, nor change an owner', async () => {
    fakeApi({
      'GET /organization/get-full-organization': {
        body: fullOrganization({
          members: [
            member('user-3', 'owner', 'Charles Babbage', 'cb@example.com'),
            { ...ADA, role: 'admin' },
            GRACE,
          ],
        }),
      },
    })
    renderOrganizations('/account/organizations/org-1')
    const grace = await screen.findByRole('listitem', { name: /Grace Hopper/ })
    const options = within(within(grace).getByLabelText('Role of Grace Hopper')).getAllByRole('option')
    expect(options.map((option) => option.textContent)).toEqual(['Member', 'Admin'])
    const owner = screen.getByRole('listitem', { name: /Charles Babbage/ })
    expect(within(owner).queryByRole('combobox')).toBeNull()
    expect(within(owner).getByText('Owner')).toBeTruthy()
  })

  it('a page the reader may not see says why, with a way back', async () => {
    fakeApi({
      'GET /organization/get-full-organization': refusal(
        403,
        'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
        'User is not a member of the organization',
      ),
    })
    renderOrganizations('/account/organizations/org-1')
    expect(await screen.findByRole('heading', { name: 'Organization not available' })).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toBe('You are not a member of this organization.')
    expect(screen.getByRole('link', { name: 'Back to your organizations' })).toBeTruthy()
  })
})

describe('invitations', () => {
  it('invites by email with a role and a team, and says where it went', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'POST /organization/invite-member': { body: { ...PENDING, id: 'inv-2', email: 'mary@example.com' } },
    })
    const { user } = renderOrganizations('/account/organizations/org-1/invitations')
    await user.type(await screen.findByLabelText('Email address'), 'mary@example.com')
    await user.selectOptions(screen.getByLabelText('Role'), 'admin')
    await user.selectOptions(screen.getByLabelText('Team'), 'team-1')
    await user.click(screen.getByRole('button', { name: 'Send invitation' }))
    expect((await screen.findByRole('status')).textContent).toContain('Invitation sent to mary@example.com')
    expect(api.to('POST', '/organization/invite-member').map((call) => call.body)).toEqual([
      { organizationId: 'org-1', email: 'mary@example.com', role: 'admin', teamId: 'team-1' },
    ])
  })

  it('puts "already invited" under the address, and lists and cancels what is pending', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'POST /organization/invite-member': refusal(
        400,
        'USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION',
        'User is already invited to this organization',
      ),
      'POST /organization/cancel-invitation': refusal(
        403,
        'YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION',
        'You are not allowed to cancel this invitation',
      ),
    })
    const { user } = renderOrganizations('/account/organizations/org-1/invitations')
    const email = await screen.findByLabelText('Email address')
    await user.type(email, 'katherine@example.com')
    await user.click(screen.getByRole('button', { name: 'Send invitation' }))
    await waitFor(() => expect(descriptionOf(email)).toContain('already has a pending invitation'))

    const pending = screen.getByRole('list', { name: 'Pending invitations' })
    const row = within(pending).getByRole('listitem')
    expect(row.textContent).toContain('katherine@example.com')
    expect(row.textContent).toContain('Admin · Engines')
    await user.click(within(row).getByRole('button', { name: 'Cancel invitation' }))
    expect((await within(row).findByRole('alert')).textContent).toBe(
      'Your role does not allow cancelling invitations.',
    )
    expect(api.to('POST', '/organization/cancel-invitation').map((call) => call.body)).toEqual([
      { invitationId: 'inv-1' },
    ])
  })
})

describe('teams', () => {
  it('creates, renames and removes teams; refusals stay with the team', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'GET /organization/viewer': viewerOf('owner'),
      'GET /organization/team-roster': rosterOf([{ ...TEAM, userIds: ['user-1'] }]),
      'POST /organization/create-team': { body: { id: 'team-2', name: 'Looms' } },
      'POST /organization/update-team': { body: { id: 'team-1', name: 'Mills' } },
      'POST /organization/remove-team': refusal(
        400,
        'UNABLE_TO_REMOVE_LAST_TEAM',
        'Unable to remove last team',
      ),
      'POST /organization/add-team-member': { body: { id: 'tm-2', teamId: 'team-1', userId: 'user-2' } },
    })
    const { user } = renderOrganizations('/account/organizations/org-1/teams')
    const create = await screen.findByRole('form', { name: 'Create a team' })
    await user.type(within(create).getByLabelText('Team name'), 'Looms')
    await user.click(within(create).getByRole('button', { name: 'Create team' }))
    expect((await screen.findByRole('status')).textContent).toBe('The team Looms is created.')

    const team = screen.getByRole('region', { name: 'Engines' })
    const members = await within(team).findByRole('list', { name: 'Members of Engines' })
    expect(
      within(members)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual([expect.stringContaining('Ada Lovelace')])
    // Nobody is preselected: adding without a choice asks for one, and sends nothing.
    await user.click(within(team).getByRole('button', { name: 'Add to team' }))
    expect(descriptionOf(within(team).getByLabelText('Add to Engines'))).toContain('Choose whom to add.')
    expect(api.to('POST', '/organization/add-team-member')).toEqual([])
    await user.selectOptions(within(team).getByLabelText('Add to Engines'), 'user-2')
    await user.click(within(team).getByRole('button', { name: 'Add to team' }))

    await user.click(within(team).getByRole('button', { name: 'Rename Engines' }))
    const rename = within(team).getByRole('form', { name: 'Rename Engines' })
    await user.clear(within(rename).getByLabelText('Team name'))
    await user.type(within(rename).getByLabelText('Team name'), 'Mills')
    await user.click(within(rename).getByRole('button', { name: 'Rename' }))
    await waitFor(() => expect(within(team).queryByRole('form', { name: 'Rename Engines' })).toBeNull())

    await user.click(within(team).getByRole('button', { name: 'Remove team Engines' }))
    await user.click(within(team).getByRole('button', { name: 'Remove Engines' }))
    expect((await within(team).findByRole('alert')).textContent).toBe(
      'This is the organization’s last team: it cannot be removed.',
    )
    expect(api.to('POST', '/organization/create-team').map((call) => call.body)).toEqual([
      { organizationId: 'org-1', name: 'Looms' },
    ])
    expect(api.to('POST', '/organization/update-team').map((call) => call.body)).toEqual([
      { teamId: 'team-1', data: { name: 'Mills', organizationId: 'org-1' } },
    ])
    expect(api.to('POST', '/organization/add-team-member').map((call) => call.body)).toEqual([
      { teamId: 'team-1', userId: 'user-2' },
    ])
  })
})

describe('teams an owner is not in', () => {
  const LOOMS = { ...TEAM, id: 'team-2', name: 'Looms' }

  it('shows every team to an owner, an empty one plainly, and adds people to it', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization({ teams: [TEAM, LOOMS] }) },
      'GET /organization/viewer': viewerOf('owner'),
      'GET /organization/team-roster': rosterOf([{ ...TEAM, userIds: ['user-2'] }, LOOMS]),
      'POST /organization/add-team-member': { body: { id: 'tm-9', teamId: 'team-2', userId: 'user-2' } },
    })
    const { user } = renderOrganizations('/account/organizations/org-1/teams')
    const engines = await screen.findByRole('region', { name: 'Engines' })
    expect(within(engines).getByRole('list', { name: 'Members of Engines' }).textContent).toContain(
      'Grace Hopper',
    )
    const looms = screen.getByRole('region', { name: 'Looms' })
    expect(within(looms).getByText('Nobody is in this team yet.')).toBeTruthy()
    expect(within(looms).queryByRole('alert')).toBeNull()
    await user.selectOptions(within(looms).getByLabelText('Add to Looms'), 'user-2')
    await user.click(within(looms).getByRole('button', { name: 'Add to team' }))
    await waitFor(() =>
      expect(api.to('POST', '/organization/add-team-member').map((call) => call.body)).toEqual([
        { teamId: 'team-2', userId: 'user-2' },
      ]),
    )
    expect(api.to('GET', '/organization/list-team-members')).toEqual([])
  })

  it('shows a member the teams they are in, without controls, and says so when there is none', async () => {
    const signedIn = signedInAs({ id: 'user-2', name: 'Grace Hopper', email: 'grace@example.com' })
    fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization({ teams: [TEAM, LOOMS] }) },
      'GET /organization/viewer': viewerOf('member'),
      'GET /organization/team-roster': rosterOf([{ ...LOOMS, userIds: ['user-2'] }]),
    })
    renderOrganizations('/account/organizations/org-1/teams', { signedIn })
    const looms = await screen.findByRole('region', { name: 'Looms' })
    expect(within(looms).getByRole('list', { name: 'Members of Looms' }).textContent).toContain('Grace')
    expect(within(looms).queryByRole('button')).toBeNull()
    expect(screen.queryByRole('region', { name: 'Engines' })).toBeNull()
    expect(screen.queryByRole('form', { name: 'Create a team' })).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
  })
})

describe('settings', () => {
  it('saves only what changed', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'POST /organization/update': { body: { ...ORGS[0], name: 'Engines of Analysis' } },
    })
    const { user } = renderOrganizations('/account/organizations/org-1/settings')
    const name = await screen.findByLabelText('Organization name')
    await user.clear(name)
    await user.type(name, 'Engines of Analysis')
    await user.type(screen.getByLabelText(/Logo address/), 'ftp://example.com/logo.png')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(descriptionOf(screen.getByLabelText(/Logo address/))).toContain('Use a web address')
    await user.clear(screen.getByLabelText(/Logo address/))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect((await screen.findByRole('status')).textContent).toBe('The organization is saved.')
    expect(api.to('POST', '/organization/update').map((call) => call.body)).toEqual([
      { organizationId: 'org-1', data: { name: 'Engines of Analysis' } },
    ])
  })

  it('deletes only once the slug is typed, then goes back to the list', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'POST /organization/delete': { body: ORGS[0] },
      'GET /organization/list': { body: [] },
    })
    const { user } = renderOrganizations('/account/organizations/org-1/settings')
    await user.click(await screen.findByRole('button', { name: 'Delete organization…' }))
    const confirmation = screen.getByLabelText('Type analytical-engines to confirm')
    await user.type(confirmation, 'analytical')
    await user.click(screen.getByRole('button', { name: 'Delete organization' }))
    expect(descriptionOf(confirmation)).toContain('Type analytical-engines to confirm.')
    expect(api.to('POST', '/organization/delete')).toEqual([])
    await user.type(confirmation, '-engines')
    await user.click(screen.getByRole('button', { name: 'Delete organization' }))
    expect(await screen.findByRole('heading', { name: 'Organizations', level: 1 })).toBeTruthy()
    expect(screen.getByText('Analytical Engines is deleted.').closest('[role="status"]')).toBeTruthy()
  })

  it('an admin changes details but is offered no deletion', async () => {
    fakeApi({
      'GET /organization/get-full-organization': {
        body: fullOrganization({ members: [{ ...ADA, role: 'admin' }, GRACE] }),
      },
    })
    renderOrganizations('/account/organizations/org-1/settings')
    expect(await screen.findByRole('button', { name: 'Save' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Delete organization…' })).toBeNull()
  })
})

describe('the audit feed', () => {
  it('says who did what, in words, and loads more', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'GET /organization/activity': (call) =>
        call.query.get('cursor') === 'c1'
          ? {
              body: {
                entries: [
                  {
                    id: 'e1',
                    type: 'organization.created',
                    at: '2026-01-02T09:00:00.000Z',
                    actorUserId: 'user-1',
                    details: {},
                  },
                ],
                nextCursor: null,
              },
            }
          : {
              body: {
                entries: [
                  {
                    id: 'e3',
                    type: 'organization.member-role-updated',
                    at: '2026-01-04T09:00:00.000Z',
                    actorUserId: 'user-1',
                    details: { userId: 'user-2', role: 'admin' },
                  },
                  {
                    id: 'e2',
                    type: 'organization.invitation-created',
                    at: '2026-01-03T09:00:00.000Z',
                    actorUserId: 'user-1',
                    details: { email: 'grace@example.com', role: 'member' },
                  },
                ],
                nextCursor: 'c1',
              },
            },
    })
    const { user } = renderOrganizations('/account/organizations/org-1/activity')
    const feed = await screen.findByRole('list', { name: 'Organization activity' })
    expect(
      within(feed)
        .getAllByRole('listitem')
        .map((entry) => entry.firstChild?.textContent),
    ).toEqual(['Ada Lovelace made Grace Hopper Admin', 'Ada Lovelace invited grace@example.com as Member'])
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(within(feed).getAllByRole('listitem')).toHaveLength(3))
    expect(within(feed).getAllByRole('listitem')[2]?.firstChild?.textContent).toBe(
      'Ada Lovelace created the organization',
    )
    // Focus continues where reading does: the first entry that was loaded.
    await waitFor(() => expect(document.activeElement).toBe(within(feed).getAllByRole('listitem')[2]))
    expect(api.to('GET', '/organization/activity')[0]?.query.get('organizationId')).toBe('org-1')
    expect(screen.getByText('That is everything.')).toBeTruthy()
  })
})

describe('the invitation link (/accept-invitation/:id)', () => {
  const DETAILS = {
    ...PENDING,
    email: 'grace@example.com',
    role: 'member',
    organizationName: 'Analytical Engines',
    organizationSlug: 'analytical-engines',
    inviterEmail: 'ada@example.com',
  }

  it('signed out: sign in or create an account first, the address filled in, and come back', async () => {
    const api = fakeApi({ 'GET /get-session': { body: null } })
    const { user } = renderOrganizations('/accept-invitation/inv-1?email=grace%40example.com')
    expect(
      await screen.findByRole('heading', { name: 'You have been invited to an organization' }),
    ).toBeTruthy()
    expect(screen.getByText('grace@example.com')).toBeTruthy()
    await user.click(screen.getByRole('link', { name: 'Create an account' }))
    const location = await screen.findByTestId('location')
    expect(location.textContent).toBe('/sign-up')
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({
      from: '/accept-invitation/inv-1',
      email: 'grace@example.com',
    })
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([])
  })

  it('signed in: who invited them to what; accepting opens the organization', async () => {
    const api = fakeApi({
      'GET /get-session': { body: signedInAs({ id: 'user-2', email: 'grace@example.com' }) },
      'GET /organization/get-invitation': { body: DETAILS },
      'GET /organization/invitation-preview': {
        body: {
          organizationName: 'Analytical Engines',
          inviterName: 'Ada Lovelace',
          expiresAt: DETAILS.expiresAt,
        },
      },
      'POST /organization/accept-invitation': { body: { invitation: DETAILS, member: GRACE } },
      'GET /organization/get-full-organization': { body: fullOrganization() },
    })
    const { user } = renderOrganizations('/accept-invitation/inv-1')
    expect(await screen.findByRole('heading', { name: 'Join Analytical Engines?', level: 1 })).toBeTruthy()
    // The inviter by name, as signed out, with the address beside it (once the preview is in).
    await waitFor(() =>
      expect(screen.getByText(/invited you to join/).textContent).toBe(
        'Ada Lovelace (ada@example.com) invited you to join Analytical Engines as Member.',
      ),
    )
    expect(api.to('GET', '/organization/get-invitation')[0]?.query.get('id')).toBe('inv-1')
    await user.click(screen.getByRole('button', { name: 'Accept invitation' }))
    // On to the organization, its members, saying what happened.
    expect(await screen.findByRole('heading', { name: 'Members', level: 1 })).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe(
      'You joined Analytical Engines. It is now your active organization.',
    )
    expect(api.to('POST', '/organization/accept-invitation').map((call) => call.body)).toEqual([
      { invitationId: 'inv-1' },
    ])
  })

  it('declining says so; a refusal to accept stays next to the buttons', async () => {
    const api = fakeApi({
      'GET /get-session': { body: signedInAs({ id: 'user-2', email: 'grace@example.com' }) },
      'GET /organization/get-invitation': { body: DETAILS },
      'POST /organization/accept-invitation': refusal(
        403,
        'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED',
        'Organization membership limit reached',
      ),
      'POST /organization/reject-invitation': { body: { invitation: { ...DETAILS, status: 'rejected' } } },
    })
    const { user } = renderOrganizations('/accept-invitation/inv-1')
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This organization is full: it has as many members as it may have.',
    )
    await user.click(screen.getByRole('button', { name: 'Decline' }))
    expect((await screen.findByRole('status')).textContent).toBe(
      'You declined the invitation to Analytical Engines.',
    )
    expect(api.to('POST', '/organization/reject-invitation')).toHaveLength(1)
  })

  it('signed in with another address: says so and offers to add the right account', async () => {
    fakeApi({
      'GET /get-session': { body: signedInAs() },
      'GET /organization/get-invitation': refusal(
        403,
        'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION',
        'You are not the recipient of the invitation',
      ),
    })
    const { user } = renderOrganizations('/accept-invitation/inv-1')
    expect(await screen.findByRole('heading', { name: 'This invitation is for someone else' })).toBeTruthy()
    await user.click(screen.getByRole('link', { name: 'Sign in with another account' }))
    const location = await screen.findByTestId('location')
    expect(location.textContent).toBe('/sign-in?add-account')
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ from: '/accept-invitation/inv-1' })
  })

  it('an answered, cancelled or expired invitation is said to be no longer valid', async () => {
    fakeApi({
      'GET /get-session': { body: signedInAs() },
      'GET /organization/get-invitation': {
        status: 400,
        body: { code: 'BAD_REQUEST', message: 'Invitation not found!' },
      },
    })
    renderOrganizations('/accept-invitation/inv-1')
    expect(await screen.findByRole('heading', { name: 'This invitation is no longer valid' })).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toContain('has expired, or has already been answered')
  })
})
