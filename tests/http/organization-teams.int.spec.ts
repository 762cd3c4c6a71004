/// Teams over HTTP: create (admins), list, update, add and remove members, set-active-team, list
/// team members and user teams, removing teams (not the last, not one's own active team), and the
/// server-only add-member use case (what the CLI and the server API call).

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addMember } from '../../command-api/organization/organizations.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const origin = { requestId: 'cli', ip: null, userAgent: 'tessera-cli' }

describe('organization teams (pglite)', { timeout: 240_000 }, () => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera()
  })
  afterEach(() => tessera.cleanup())

  it('creates, lists, renames and removes teams; manages their members and the active team', async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const eve = await signUp(tessera, 'eve')
    const organizationId = (
      (await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })).json as { id: string }
    ).id
    const [defaultTeam] = (await ada.get('/organization/list-teams')).json as { id: string }[]
    // The server adds bob without an invitation (the CLI's and the server API's use case).
    const member = await addMember(
      tessera.ctx,
      origin,
      { kind: 'server', actor: { type: 'system' } },
      {
        userId: bob.userId,
        role: 'member',
        organizationId,
      },
    )
    expect(member).toMatchObject({ user_id: bob.userId, role: 'member' })
    await bob.post('/organization/set-active', { organizationId })

    expectRefusal(
      await bob.post('/organization/create-team', { name: 'Mine' }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION',
    )
    expectRefusal(
      await eve.post('/organization/create-team', { name: 'X', organizationId }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION',
    )
    expectRefusal(await ada.post('/organization/create-team', { name: '' }), 400, 'VALIDATION_ERROR')
    const team = (await ada.post('/organization/create-team', { name: 'Platform' })).json as {
      id: string
      name: string
    }
    expect(team).toMatchObject({ name: 'Platform', organizationId })
    expect(((await ada.get('/organization/list-teams')).json as unknown[]).length).toBe(2)
    expectRefusal(
      await eve.get(`/organization/list-teams?organizationId=${organizationId}`),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION',
    )
    expect(
      (await ada.post('/organization/update-team', { teamId: team.id, data: { name: 'Core' } })).json,
    ).toMatchObject({ name: 'Core' })
    expectRefusal(
      await bob.post('/organization/update-team', { teamId: team.id, data: { name: 'Mine' } }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM',
    )

    expectRefusal(
      await ada.post('/organization/add-team-member', { teamId: team.id, userId: eve.userId }),
      400,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    )
    expectRefusal(
      await bob.post('/organization/add-team-member', { teamId: team.id, userId: bob.userId }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER',
    )
    expect(
      (await ada.post('/organization/add-team-member', { teamId: team.id, userId: bob.userId })).json,
    ).toMatchObject({ teamId: team.id, userId: bob.userId })

    expectRefusal(await bob.get('/organization/list-team-members'), 400, 'YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM')
    expectRefusal(
      await bob.post('/organization/set-active-team', { teamId: defaultTeam?.id }),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_TEAM',
    )
    expect((await bob.post('/organization/set-active-team', { teamId: team.id })).json).toMatchObject({
      id: team.id,
    })
    expect(
      ((await bob.get('/get-session')).json as { session: { activeTeamId: string } }).session.activeTeamId,
    ).toBe(team.id)
    expect((await bob.get('/organization/list-team-members')).json).toEqual([
      expect.objectContaining({ userId: bob.userId }),
    ])
    expect((await bob.get('/organization/list-user-teams')).json).toEqual([
      expect.objectContaining({ id: team.id }),
    ])
    expect((await ada.get(`/organization/list-user-teams?userId=${bob.userId}`)).json).toEqual([
      expect.objectContaining({ id: team.id }),
    ])
    expectRefusal(
      await bob.get(`/organization/list-user-teams?userId=${ada.userId}`),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER',
    )

    // Taking bob out of the team clears it as his active team.
    expectRefusal(
      await bob.post('/organization/remove-team-member', { teamId: team.id, userId: bob.userId }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER',
    )
    expect(
      (await ada.post('/organization/remove-team-member', { teamId: team.id, userId: bob.userId })).json,
    ).toEqual({ message: 'Team member removed successfully.' })
    expect(
      ((await bob.get('/get-session')).json as { session: { activeTeamId: string | null } }).session
        .activeTeamId,
    ).toBeNull()
    expectRefusal(
      await ada.post('/organization/remove-team-member', { teamId: team.id, userId: bob.userId }),
      400,
      'USER_IS_NOT_A_MEMBER_OF_THE_TEAM',
    )

    // Nobody removes their own active team; the last team stays.
    expectRefusal(
      await ada.post('/organization/remove-team', { teamId: defaultTeam?.id }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM',
    )
    expectRefusal(
      await bob.post('/organization/remove-team', { teamId: team.id }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION',
    )
    expect((await ada.post('/organization/remove-team', { teamId: team.id })).json).toEqual({
      message: 'Team removed successfully.',
    })
    await ada.post('/organization/set-active-team', { teamId: null })
    expectRefusal(
      await ada.post('/organization/remove-team', { teamId: defaultTeam?.id }),
      400,
      'UNABLE_TO_REMOVE_LAST_TEAM',
      'Unable to remove last team',
    )
    expectRefusal(await ada.post('/organization/remove-team', { teamId: 'nope' }), 400, 'TEAM_NOT_FOUND')
  })

  it("shows a created team as updated when created, and each team's member count in the full organization", async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const organizationId = (
      (await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })).json as { id: string }
    ).id
    await addMember(
      tessera.ctx,
      origin,
      { kind: 'server', actor: { type: 'system' } },
      { userId: bob.userId, role: 'member', organizationId },
    )
    type Team = {
      id: string
      name: string
      createdAt: string
      updatedAt: string | null
      memberCount?: number
    }
    const created = (await ada.post('/organization/create-team', { name: 'Red' })).json as Team
    // better-auth's create-team sets updatedAt with createdAt; its default team has none.
    expect(created.updatedAt).toBe(created.createdAt)
    const listed = (await ada.get('/organization/list-teams')).json as Team[]
    expect(listed.map(({ name, updatedAt }) => ({ name, updatedAt }))).toEqual([
      { name: 'Acme', updatedAt: null },
      { name: 'Red', updatedAt: created.createdAt },
    ])
    await ada.post('/organization/add-team-member', { teamId: created.id, userId: bob.userId })
    await bob.post('/organization/set-active', { organizationId })
    expect((await bob.post('/organization/set-active-team', { teamId: created.id })).json).toMatchObject({
      updatedAt: created.createdAt,
    })
    expect((await bob.get('/organization/list-user-teams')).json).toEqual([
      expect.objectContaining({ id: created.id, updatedAt: created.createdAt }),
    ])

    const full = (await ada.get('/organization/get-full-organization')).json as { teams: Team[] }
    expect(full.teams.map(({ name, updatedAt, memberCount }) => ({ name, updatedAt, memberCount }))).toEqual([
      { name: 'Acme', updatedAt: null, memberCount: 1 },
      { name: 'Red', updatedAt: created.createdAt, memberCount: 1 },
    ])
    await ada.post('/organization/add-team-member', { teamId: created.id, userId: ada.userId })
    await ada.post('/organization/remove-team-member', { teamId: created.id, userId: bob.userId })
    await ada.post('/organization/create-team', { name: 'Empty' })
    const after = (await ada.get('/organization/get-full-organization')).json as { teams: Team[] }
    expect(after.teams.map(({ name, memberCount }) => ({ name, memberCount }))).toEqual([
      { name: 'Acme', memberCount: 1 },
      { name: 'Red', memberCount: 1 },
      { name: 'Empty', memberCount: 0 },
    ])
  })
})
