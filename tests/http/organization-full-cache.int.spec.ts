/// get-full-organization keeps its answers in memory while the process projects
/// (http/organization/organization-cache.ts). Each change that reaches the answer must
/// show in the very next request after the command answered: a member's role, a member's own name,
/// email and image, a new member, a removal, an invitation, the organization's own fields, and an
/// account deletion (the member and the invitations to their address go). has-permission keeps the
/// caller's membership under the same rules, organization/list each caller's organizations.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Browser } from '../support/browser.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

type Full = {
  name: string
  members: {
    id: string
    userId: string
    role: string
    user: { name: string; email: string; image: string | null }
  }[]
  invitations: { email: string; status: string }[]
}

const fullOf = async (device: Browser): Promise<Full> => {
  const response = await device.get('/organization/get-full-organization')
  expect(response.status).toBe(200)
  return response.json as Full
}

describe('get-full-organization kept in memory (pglite)', { timeout: 180_000 }, () => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera({ features: { user: { deleteUser: { enabled: true, immediate: true } } } })
  })
  afterEach(() => tessera.cleanup())

  /** Ada's organization with Bob in it, both having asked for it twice (the second from memory). */
  const organizationWithBob = async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const created = await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })
    const organizationId = (created.json as { id: string }).id
    const invited = await ada.post('/organization/invite-member', { email: bob.email, role: 'member' })
    const invitationId = (invited.json as { id: string }).id
    expect((await bob.post('/organization/accept-invitation', { invitationId })).status).toBe(200)
    for (const device of [ada, bob, ada, bob]) expect((await fullOf(device)).members).toHaveLength(2)
    return { ada, bob, organizationId }
  }

  const bobIn = (full: Full, bobId: string) => full.members.find((member) => member.userId === bobId)

  it("shows a role change, the member's new profile and the organization's new name at once", async () => {
    const { ada, bob } = await organizationWithBob()
    const bobMember = bobIn(await fullOf(ada), bob.userId)
    expect(bobMember?.role).toBe('member')

    const role = await ada.post('/organization/update-member-role', {
      memberId: bobMember?.id,
      role: 'admin',
    })
    expect(role.status).toBe(200)
    expect(bobIn(await fullOf(ada), bob.userId)?.role).toBe('admin')
    expect(bobIn(await fullOf(bob), bob.userId)?.role).toBe('admin')

    const image = 'https://example.com/bob.png'
    expect((await bob.post('/update-user', { name: 'Robert', image })).status).toBe(200)
    expect(bobIn(await fullOf(ada), bob.userId)?.user).toMatchObject({ name: 'Robert', image })

    expect((await ada.post('/organization/update', { data: { name: 'Acme Ltd' } })).status).toBe(200)
    expect((await fullOf(bob)).name).toBe('Acme Ltd')
  })

  it('shows a new invitation and a new member, and refuses a removed member at once', async () => {
    const { ada, bob, organizationId } = await organizationWithBob()
    const cat = await signUp(tessera, 'cat')
    const invited = await ada.post('/organization/invite-member', { email: cat.email, role: 'member' })
    expect((await fullOf(bob)).invitations).toMatchObject([
      { email: bob.email, status: 'accepted' },
      { email: cat.email, status: 'pending' },
    ])
    const invitationId = (invited.json as { id: string }).id
    expect((await cat.post('/organization/accept-invitation', { invitationId })).status).toBe(200)
    expect((await fullOf(ada)).members.map((member) => member.userId)).toContain(cat.userId)

    expect((await ada.post('/organization/remove-member', { memberIdOrEmail: bob.email })).status).toBe(200)
    expect((await fullOf(ada)).members.map((member) => member.userId)).toEqual([ada.userId, cat.userId])
    // Bob's session lost the organization with his membership: asked for it by id, he is refused.
    expectRefusal(
      await bob.get(`/organization/get-full-organization?organizationId=${organizationId}`),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    )
  })

  it("drops a deleted account's membership and the invitations to its address at once", async () => {
    const { ada, bob } = await organizationWithBob()
    const dan = await signUp(tessera, 'dan')
    await ada.post('/organization/invite-member', { email: dan.email, role: 'member' })
    expect((await fullOf(ada)).invitations.map((invitation) => invitation.email)).toContain(dan.email)

    expect((await dan.post('/delete-user', {})).status).toBe(200)
    expect((await fullOf(ada)).invitations.map((invitation) => invitation.email)).not.toContain(dan.email)
    expect((await bob.post('/delete-user', {})).status).toBe(200)
    expect((await fullOf(ada)).members.map((member) => member.userId)).toEqual([ada.userId])
  })

  it("has-permission follows a member's role change and removal at once", async () => {
    const { ada, bob, organizationId } = await organizationWithBob()
    const ask = () =>
      bob.post('/organization/has-permission', { organizationId, permissions: { member: ['create'] } })
    for (let i = 0; i < 2; i++) expect((await ask()).json).toEqual({ error: null, success: false })
    const bobMember = bobIn(await fullOf(ada), bob.userId)
    await ada.post('/organization/update-member-role', { memberId: bobMember?.id, role: 'admin' })
    expect((await ask()).json).toEqual({ error: null, success: true })
    expect((await ada.post('/organization/remove-member', { memberIdOrEmail: bob.email })).status).toBe(200)
    expectRefusal(await ask(), 401, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION')
  })

  it("organization/list follows a new organization, another's rename and a removal at once", async () => {
    const { ada, bob } = await organizationWithBob()
    const names = async () =>
      ((await bob.get('/organization/list')).json as { name: string }[]).map((o) => o.name)
    for (let i = 0; i < 2; i++) expect(await names()).toEqual(['Acme'])
    expect((await bob.post('/organization/create', { name: 'Bobco', slug: 'bobco' })).status).toBe(200)
    expect(await names()).toEqual(['Acme', 'Bobco'])
    const acme = ((await ada.get('/organization/list')).json as { id: string }[])[0]
    await ada.post('/organization/update', { organizationId: acme?.id, data: { name: 'Acme Ltd' } })
    expect(await names()).toEqual(['Acme Ltd', 'Bobco'])
    const removed = await ada.post('/organization/remove-member', {
      memberIdOrEmail: bob.email,
      organizationId: acme?.id,
    })
    expect(removed.status).toBe(200)
    expect(await names()).toEqual(['Bobco'])
  })

  it('a limit that cuts the list still checks the caller is a member', async () => {
    const { ada, bob, organizationId } = await organizationWithBob()
    const eve = await signUp(tessera, 'eve')
    const path = `/organization/get-full-organization?organizationId=${organizationId}&membersLimit=1`
    for (const device of [ada, bob, bob]) {
      const response = await device.get(path)
      expect(response.status).toBe(200)
      expect((response.json as Full).members.map((member) => member.userId)).toEqual([ada.userId])
    }
    expectRefusal(await eve.get(path), 403, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION')
  })
})
