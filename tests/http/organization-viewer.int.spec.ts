/// Tessera's reads for the portal's organization pages: what the caller's role grants
/// (organization/viewer) and teams with their members (organization/team-roster), so that owners
/// manage teams they are not in and no page learns its rights from a refusal. better-auth's
/// list-team-members keeps its wire: only a team's own members may read it.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addMember } from '../../command-api/organization/organizations.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const origin = { requestId: 'test', ip: null, userAgent: 'test' }
type Roster = { id: string; name: string; members: { userId: string }[] }[]

describe('organization viewer and team roster (pglite)', { timeout: 240_000 }, () => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera()
  })
  afterEach(() => tessera.cleanup())

  const organizationWithMember = async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const eve = await signUp(tessera, 'eve')
    const { id } = (await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })).json as {
      id: string
    }
    const system = { kind: 'server', actor: { type: 'system' } } as const
    await addMember(tessera.ctx, origin, system, { userId: bob.userId, role: 'member', organizationId: id })
    return { ada, bob, eve, organizationId: id }
  }

  it('tells an owner and a member what their role grants, and refuses outsiders', async () => {
    const { ada, bob, eve, organizationId } = await organizationWithMember()
    const owner = await ada.get(`/organization/viewer?organizationId=${organizationId}`)
    expect(owner.status).toBe(200)
    expect(owner.json).toMatchObject({
      role: 'owner',
      features: { teams: true, customRoles: false },
      permissions: {
        team: ['create', 'update', 'delete'],
        activity: ['read'],
        apiKey: ['create', 'read', 'update', 'delete'],
      },
    })
    const member = (await bob.get(`/organization/viewer?organizationId=${organizationId}`)).json as {
      role: string
      permissions: Record<string, string[]>
    }
    expect(member.role).toBe('member')
    expect(member.permissions).toEqual({ ac: ['read'] })
    expectRefusal(
      await eve.get(`/organization/viewer?organizationId=${organizationId}`),
      403,
      'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
    )
    expectRefusal(await ada.get('/organization/viewer'), 400, 'VALIDATION_ERROR')
  })

  it('shows an owner every team, empty ones too, and a member only the teams they are in', async () => {
    const { ada, bob, eve, organizationId } = await organizationWithMember()
    const platform = (await ada.post('/organization/create-team', { name: 'Platform', organizationId }))
      .json as { id: string }
    const design = (await ada.post('/organization/create-team', { name: 'Design', organizationId })).json as {
      id: string
    }
    await ada.post('/organization/add-team-member', { teamId: design.id, userId: bob.userId })

    // better-auth's wire is kept: the owner is in neither team, so list-team-members refuses.
    expectRefusal(
      await ada.get(`/organization/list-team-members?teamId=${platform.id}`),
      400,
      'USER_IS_NOT_A_MEMBER_OF_THE_TEAM',
    )
    const all = (await ada.get(`/organization/team-roster?organizationId=${organizationId}`)).json as Roster
    expect(all.map((team) => team.name)).toEqual(['Acme', 'Platform', 'Design'])
    expect(all.find((team) => team.id === platform.id)?.members).toEqual([])
    expect(all.find((team) => team.id === design.id)?.members).toMatchObject([{ userId: bob.userId }])

    const own = (await bob.get(`/organization/team-roster?organizationId=${organizationId}`)).json as Roster
    expect(own.map((team) => team.name)).toEqual(['Design'])
    expectRefusal(
      await eve.get(`/organization/team-roster?organizationId=${organizationId}`),
      403,
      'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
    )
  })
})
