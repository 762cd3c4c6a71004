/// Compatibility: better-auth 1.7.5's client with `organizationClient({ teams: { enabled: true } })`
/// drives a Tessera on loopback: create, list, set-active (seen by getSession), invite and accept,
/// members and roles, has-permission, teams, leave, delete, and the plugin's errors.

import { createAuthClient } from 'better-auth/client'
import { organizationClient } from 'better-auth/client/plugins'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { browserCookies } from './browser-cookies.js'

const PASSWORD = 'correct horse battery'

const device = (tessera: TestTessera) => {
  const { jar, fetchOptions } = browserCookies(tessera)
  const client = createAuthClient({
    baseURL: tessera.baseUrl,
    plugins: [organizationClient({ teams: { enabled: true } })],
    fetchOptions,
  })
  return { jar, client }
}

describe('better-auth 1.7.5 organizationClient (teams) against Tessera (pglite, loopback)', {
  timeout: 240_000,
}, () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ listen: true })
  })
  afterAll(() => tessera.cleanup())

  it('creates, invites, accepts, manages members and teams, and reads refusals', async () => {
    const ada = device(tessera)
    const bob = device(tessera)
    expect(
      (await ada.client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: PASSWORD })).error,
    ).toBeNull()
    expect(
      (await bob.client.signUp.email({ name: 'Bob', email: 'bob@example.com', password: PASSWORD })).error,
    ).toBeNull()

    const slugFree = await ada.client.organization.checkSlug({ slug: 'acme' })
    expect(slugFree.data).toEqual({ status: true })
    const created = await ada.client.organization.create({ name: 'Acme', slug: 'acme' })
    expect(created.error).toBeNull()
    const organizationId = created.data?.id as string
    expect(created.data).toMatchObject({ name: 'Acme', slug: 'acme', members: [{ role: 'owner' }] })
    const taken = await ada.client.organization.create({ name: 'Again', slug: 'acme' })
    expect(taken.error).toMatchObject({
      status: 400,
      code: 'ORGANIZATION_ALREADY_EXISTS',
      message: 'Organization already exists',
    })

    const session = await ada.client.getSession()
    expect(session.data?.session).toMatchObject({ activeOrganizationId: organizationId })
    expect((await ada.client.organization.list()).data).toEqual([
      expect.objectContaining({ id: organizationId }),
    ])

    const invited = await ada.client.organization.inviteMember({ email: 'bob@example.com', role: 'admin' })
    expect(invited.error).toBeNull()
    const invitationId = invited.data?.id as string
    const read = await bob.client.organization.getInvitation({ query: { id: invitationId } })
    expect(read.data).toMatchObject({ organizationName: 'Acme', inviterEmail: 'ada@example.com' })
    const accepted = await bob.client.organization.acceptInvitation({ invitationId })
    expect(accepted.error).toBeNull()
    expect(accepted.data?.member).toMatchObject({ role: 'admin', organizationId })

    const active = await bob.client.organization.getActiveMember()
    expect(active.data).toMatchObject({ role: 'admin', user: { email: 'bob@example.com' } })
    const full = await ada.client.organization.getFullOrganization()
    expect(full.data?.members).toHaveLength(2)
    const members = await ada.client.organization.listMembers()
    expect(members.data?.total).toBe(2)

    const allowed = await bob.client.organization.hasPermission({ permissions: { member: ['delete'] } })
    expect(allowed.data).toEqual({ error: null, success: true })
    const denied = await bob.client.organization.hasPermission({ permissions: { organization: ['delete'] } })
    expect(denied.data).toEqual({ error: null, success: false })
    const bobMember = active.data as { id: string }
    const updated = await ada.client.organization.updateMemberRole({ memberId: bobMember.id, role: 'member' })
    expect(updated.data).toMatchObject({ role: 'member' })
    const refused = await bob.client.organization.removeMember({ memberIdOrEmail: 'ada@example.com' })
    expect(refused.error).toMatchObject({
      status: 400,
      code: 'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
    })

    const team = await ada.client.organization.createTeam({ name: 'Platform' })
    expect(team.error).toBeNull()
    const teamId = team.data?.id as string
    expect((await ada.client.organization.listTeams()).data).toHaveLength(2)
    const joined = await ada.client.organization.addTeamMember({
      teamId,
      userId: accepted.data?.member.userId as string,
    })
    expect(joined.data).toMatchObject({ teamId })
    const setTeam = await bob.client.organization.setActiveTeam({ teamId })
    expect(setTeam.data).toMatchObject({ id: teamId })
    expect((await bob.client.organization.listTeamMembers({ query: { teamId } })).data).toHaveLength(1)
    expect((await bob.client.organization.listUserTeams()).data).toEqual([
      expect.objectContaining({ id: teamId }),
    ])
    const renamed = await ada.client.organization.updateTeam({ teamId, data: { name: 'Core' } })
    expect(renamed.data).toMatchObject({ name: 'Core' })

    const left = await bob.client.organization.leave({ organizationId })
    expect(left.error).toBeNull()
    expect((await bob.client.getSession()).data?.session).toMatchObject({
      activeOrganizationId: null,
      activeTeamId: null,
    })
    const deleted = await ada.client.organization.delete({ organizationId })
    expect(deleted.error).toBeNull()
    expect((await ada.client.organization.list()).data).toEqual([])
  })
})
