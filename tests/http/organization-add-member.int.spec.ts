/// `POST /organization/add-member` on the server API: better-auth's server-only addMember, reached
/// with `x-tessera-server-key`; its answer, its refusals (in better-auth's order and words), the
/// `server:<name>` actor in the event, and 403 to anything that looks like a browser or a session.

import { afterEach, describe, expect, it } from 'vitest'
import { organizationStream } from '../../domain/organization/organization.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const BILLING_KEY = 'billing-server-key-0123456789abcdefghij'
const server = { 'x-tessera-server-key': BILLING_KEY }

describe('add-member over the server API (pglite)', { timeout: 180_000 }, () => {
  let tessera: TestTessera
  const start = async (features: object = {}) => {
    tessera = await startTessera({ env: { SERVER_KEYS: `billing=${BILLING_KEY}` }, features })
  }
  afterEach(() => tessera.cleanup())

  const addMember = (body: Record<string, unknown>, headers: Record<string, string> = server) =>
    tessera.api.request('POST', '/organization/add-member', body, headers)

  const organizationOf = async (owner: Awaited<ReturnType<typeof signUp>>, slug: string) => {
    const created = await owner.post('/organization/create', { name: `Org ${slug}`, slug })
    expect(created.status).toBe(200)
    return created.json as { id: string }
  }

  it('adds a user with the role given, recorded as done by server:billing', async () => {
    await start()
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const org = await organizationOf(ada, 'acme')

    const added = await addMember({ userId: bob.userId, role: ['admin', 'member'], organizationId: org.id })
    expect(added.status).toBe(200)
    expect(added.json).toEqual({
      id: expect.any(String),
      organizationId: org.id,
      userId: bob.userId,
      role: 'admin,member',
      createdAt: expect.any(String),
    })
    const listed = (await bob.get('/organization/list')).json as { id: string }[]
    expect(listed.map((entry) => entry.id)).toEqual([org.id])
    const members = (await ada.get('/organization/list-members')).json as { members: { userId: string }[] }
    expect(members.members.map((member) => member.userId).sort()).toEqual([ada.userId, bob.userId].sort())

    const events = await tessera.store.readStream(organizationStream(org.id))
    const event = events.find(
      (candidate) =>
        candidate.type === 'organization.member-added' &&
        (candidate.data as { userId?: string }).userId === bob.userId,
    )
    expect(event?.metadata.actor).toEqual({ type: 'server', name: 'billing' })
  })

  it('refuses as better-auth does: a member already, an unknown user, organization or team, no organization', async () => {
    await start()
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const org = await organizationOf(ada, 'acme')

    expectRefusal(
      await addMember({ userId: ada.userId, role: 'member', organizationId: org.id }),
      400,
      'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION',
      'User is already a member of this organization',
    )
    expectRefusal(
      await addMember({ userId: 'nobody', role: 'member', organizationId: org.id }),
      400,
      'USER_NOT_FOUND',
      'User not found',
    )
    expectRefusal(
      await addMember({ userId: bob.userId, role: 'member', organizationId: 'no-such-organization' }),
      400,
      'ORGANIZATION_NOT_FOUND',
      'Organization not found',
    )
    expectRefusal(
      await addMember({ userId: bob.userId, role: 'member', organizationId: org.id, teamId: 'no-team' }),
      400,
      'TEAM_NOT_FOUND',
      'Team not found',
    )
    // The server has no session, so there is no active organization to fall back on.
    expectRefusal(await addMember({ userId: bob.userId, role: 'member' }), 400, 'NO_ACTIVE_ORGANIZATION')
    expectRefusal(
      await addMember({ userId: bob.userId, role: 'wizard', organizationId: org.id }),
      400,
      'ROLE_NOT_FOUND',
    )
    expectRefusal(await addMember({ userId: bob.userId, organizationId: org.id }), 400, 'VALIDATION_ERROR')
    const members = (await ada.get('/organization/list-members')).json as { total: number }
    expect(members.total).toBe(1)
  })

  it('puts the new member in the team named, and stops at the membership limit (403)', async () => {
    await start({ organization: { membershipLimit: 2 } })
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const cat = await signUp(tessera, 'cat')
    const org = await organizationOf(ada, 'acme')
    const team = (
      (await ada.post('/organization/create-team', { name: 'Support', organizationId: org.id })).json as {
        id: string
      }
    ).id

    const added = await addMember({
      userId: bob.userId,
      role: 'member',
      organizationId: org.id,
      teamId: team,
    })
    expect(added.status).toBe(200)
    // Only a team's members may list it: bob can.
    const teamMembers = (await bob.get(`/organization/list-team-members?teamId=${team}`)).json as {
      userId: string
    }[]
    expect(teamMembers.map((member) => member.userId)).toEqual([bob.userId])

    expectRefusal(
      await addMember({ userId: cat.userId, role: 'member', organizationId: org.id }),
      403,
      'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED',
      'Organization membership limit reached',
    )
  })

  it('answers "Teams are not enabled" to a team while teams are off', async () => {
    await start({ organization: { teams: { enabled: false } } })
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const org = await organizationOf(ada, 'acme')
    expectRefusal(
      await addMember({ userId: bob.userId, role: 'member', organizationId: org.id, teamId: 'any' }),
      400,
      'TEAMS_NOT_ENABLED',
      'Teams are not enabled',
    )
  })

  it('is not for browsers: a session gets 403, and so does a server key sent with one', async () => {
    await start()
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const org = await organizationOf(ada, 'acme')
    const body = { userId: bob.userId, role: 'admin', organizationId: org.id }

    expectRefusal(await ada.post('/organization/add-member', body), 403, 'SERVER_ONLY_OPERATION')
    expectRefusal(
      await addMember(body, { ...server, cookie: ada.jar.header() }),
      403,
      'SERVER_KEY_FROM_BROWSER',
    )
    expectRefusal(
      await addMember(body, { ...server, origin: tessera.ctx.config.baseOrigin }),
      403,
      'SERVER_KEY_FROM_BROWSER',
    )
    expectRefusal(await addMember(body, { 'x-tessera-server-key': 'not-a-key' }), 401, 'INVALID_SERVER_KEY')
    expect(((await bob.get('/organization/list')).json as unknown[]).length).toBe(0)
  })
})
