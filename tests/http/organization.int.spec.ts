/// Organizations over HTTP (better-auth's organization plugin, teams on): create and the slug,
/// update, delete, list, get-full-organization, set-active (shown by get-session), members (roles,
/// removal, leaving, the last owner), has-permission, and the refusals with better-auth's status,
/// code and message.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Browser, browserFor } from '../support/browser.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'

type Org = { id: string; name: string; slug: string; members: { id: string; userId: string; role: string }[] }
type Member = { id: string; userId: string; role: string; organizationId: string }

const activeOf = async (device: Browser) =>
  (
    (await device.get('/get-session')).json as {
      session: { activeOrganizationId: string | null; activeTeamId: string | null }
    }
  ).session

describe('organizations (pglite)', { timeout: 180_000 }, () => {
  let tessera: TestTessera
  // A start takes minutes when the machine is shared: the hook's own bound, above the project's.
  beforeEach(async () => {
    tessera = await startTessera()
  }, 400_000)
  afterEach(() => tessera.cleanup())

  const create = async (device: Browser, slug: string, extra: Record<string, unknown> = {}) => {
    const response = await device.post('/organization/create', { name: `Org ${slug}`, slug, ...extra })
    expect(response.status).toBe(200)
    return response.json as Org
  }

  /** Adds `user` to the organization as `role`, through an invitation they accept. */
  const join = async (
    owner: Browser,
    organizationId: string,
    user: Awaited<ReturnType<typeof signUp>>,
    role: string,
  ) => {
    const invited = await owner.post('/organization/invite-member', {
      email: user.email,
      role,
      organizationId,
    })
    expect(invited.status).toBe(200)
    const accepted = await user.post('/organization/accept-invitation', {
      invitationId: (invited.json as { id: string }).id,
    })
    expect(accepted.status).toBe(200)
    return (accepted.json as { member: Member }).member
  }

  it('creates an organization: the creator is owner, it becomes active with its default team', async () => {
    const ada = await signUp(tessera, 'ada')
    const org = await create(ada, 'acme', { metadata: { plan: 'pro' }, logo: 'https://example.com/logo.png' })
    expect(org).toMatchObject({
      name: 'Org acme',
      slug: 'acme',
      logo: 'https://example.com/logo.png',
      metadata: { plan: 'pro' },
    })
    expect(org.members).toEqual([
      expect.objectContaining({ userId: ada.userId, role: 'owner', organizationId: org.id }),
    ])
    const session = await activeOf(ada)
    expect(session.activeOrganizationId).toBe(org.id)
    const teams = (await ada.get('/organization/list-teams')).json as { id: string; name: string }[]
    expect(teams).toEqual([expect.objectContaining({ name: 'Org acme', organizationId: org.id })])
    expect(session.activeTeamId).toBe(teams[0]?.id)

    const kept = await create(ada, 'other', { keepCurrentActiveOrganization: true })
    expect((await activeOf(ada)).activeOrganizationId).toBe(org.id)
    const listed = (await ada.get('/organization/list')).json as { slug: string }[]
    expect(listed.map((entry) => entry.slug).sort()).toEqual(['acme', 'other'])
    expect(kept.slug).toBe('other')
  })

  it('answers check-slug and refuses a taken slug', async () => {
    const ada = await signUp(tessera, 'ada')
    expect((await ada.post('/organization/check-slug', { slug: 'acme' })).json).toEqual({ status: true })
    await create(ada, 'acme')
    expectRefusal(
      await ada.post('/organization/check-slug', { slug: 'acme' }),
      400,
      'ORGANIZATION_SLUG_ALREADY_TAKEN',
      'Organization slug already taken',
    )
    expectRefusal(
      await ada.post('/organization/create', { name: 'Again', slug: 'acme' }),
      400,
      'ORGANIZATION_ALREADY_EXISTS',
      'Organization already exists',
    )
    expectRefusal(await ada.post('/organization/create', { name: '', slug: 'x' }), 400, 'VALIDATION_ERROR')
    expectRefusal(
      await browserFor(tessera).post('/organization/create', { name: 'A', slug: 'a' }),
      401,
      'UNAUTHORIZED',
    )
  })

  it('gives one organization to two concurrent creates with one slug', async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const answers = await Promise.all(
      [ada, bob, ada, bob].map((device, index) =>
        device.post('/organization/create', { name: `N${index}`, slug: 'race' }),
      ),
    )
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    for (const answer of answers.filter((candidate) => candidate.status !== 200))
      expectRefusal(answer, 400, 'ORGANIZATION_ALREADY_EXISTS')
  })

  it('updates (admins), refuses members and non-members, and a slug already taken', async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const eve = await signUp(tessera, 'eve')
    const org = await create(ada, 'acme')
    await create(ada, 'taken', { keepCurrentActiveOrganization: true })
    await join(ada, org.id, bob, 'member')
    const updated = await ada.post('/organization/update', {
      organizationId: org.id,
      data: { name: 'Acme Inc', slug: 'acme-inc' },
    })
    expect(updated.json).toMatchObject({ id: org.id, name: 'Acme Inc', slug: 'acme-inc' })
    // The old slug is free again.
    expect((await ada.post('/organization/check-slug', { slug: 'acme' })).json).toEqual({ status: true })
    expectRefusal(
      await ada.post('/organization/update', { organizationId: org.id, data: { slug: 'taken' } }),
      400,
      'ORGANIZATION_SLUG_ALREADY_TAKEN',
    )
    expectRefusal(
      await bob.post('/organization/update', { organizationId: org.id, data: { name: 'Mine' } }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION',
      'You are not allowed to update this organization',
    )
    expectRefusal(
      await eve.post('/organization/update', { organizationId: org.id, data: { name: 'Mine' } }),
      400,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
      'User is not a member of the organization',
    )
    expectRefusal(
      await eve.post('/organization/update', { data: { name: 'X' } }),
      400,
      'ORGANIZATION_NOT_FOUND',
    )
  })

  it('get-full-organization: members with users, invitations, teams; null without one; 403 to outsiders', async () => {
    const ada = await signUp(tessera, 'ada')
    const eve = await signUp(tessera, 'eve')
    expect((await ada.get('/organization/get-full-organization')).json).toBeNull()
    const org = await create(ada, 'acme')
    await ada.post('/organization/invite-member', { email: 'zed@example.com', role: 'member' })
    const full = (await ada.get('/organization/get-full-organization')).json as Record<string, unknown>
    expect(full).toMatchObject({
      id: org.id,
      members: [
        {
          userId: ada.userId,
          role: 'owner',
          user: { id: ada.userId, email: 'ada@example.com', name: 'ada' },
        },
      ],
      invitations: [{ email: 'zed@example.com', role: 'member', status: 'pending' }],
      teams: [{ name: 'Org acme' }],
    })
    expect((await ada.get('/organization/get-full-organization?organizationSlug=acme')).json).toMatchObject({
      id: org.id,
    })
    expectRefusal(
      await eve.get(`/organization/get-full-organization?organizationId=${org.id}`),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    )
    expectRefusal(
      await eve.get('/organization/get-full-organization?organizationId=nope'),
      400,
      'ORGANIZATION_NOT_FOUND',
    )
  })

  it('set-active by id or slug, null clears it; an outsider gets 403', async () => {
    const ada = await signUp(tessera, 'ada')
    const eve = await signUp(tessera, 'eve')
    const first = await create(ada, 'first')
    const second = await create(ada, 'second')
    expect((await activeOf(ada)).activeOrganizationId).toBe(second.id)
    expect((await ada.post('/organization/set-active', { organizationSlug: 'first' })).json).toMatchObject({
      id: first.id,
    })
    expect((await activeOf(ada)).activeOrganizationId).toBe(first.id)
    // A team of the other organization does not follow the switch.
    expect((await activeOf(ada)).activeTeamId).toBeNull()
    expect((await ada.post('/organization/set-active', { organizationId: null })).json).toBeNull()
    expect((await activeOf(ada)).activeOrganizationId).toBeNull()
    expectRefusal(
      await eve.post('/organization/set-active', { organizationId: first.id }),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    )
    expectRefusal(
      await eve.post('/organization/set-active', { organizationSlug: 'nope' }),
      400,
      'ORGANIZATION_NOT_FOUND',
    )
  })

  it('members: active member and role, list, role changes, removal by id or email, leaving', async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const cat = await signUp(tessera, 'cat')
    const org = await create(ada, 'acme')
    expectRefusal(
      await bob.get('/organization/get-active-member'),
      400,
      'NO_ACTIVE_ORGANIZATION',
      'No active organization',
    )
    const bobMember = await join(ada, org.id, bob, 'admin')
    const catMember = await join(ada, org.id, cat, 'member')
    expect((await bob.get('/organization/get-active-member')).json).toMatchObject({
      id: bobMember.id,
      role: 'admin',
      user: { email: 'bob@example.com' },
    })
    expect((await bob.get('/organization/get-active-member-role')).json).toEqual({ role: 'admin' })
    expect((await bob.get(`/organization/get-active-member-role?userId=${ada.userId}`)).json).toEqual({
      role: 'owner',
    })

    const listed = (await ada.get('/organization/list-members')).json as { members: Member[]; total: number }
    expect(listed.total).toBe(3)
    const paged = (await ada.get('/organization/list-members?limit=1&offset=1&sortBy=createdAt')).json as {
      members: Member[]
      total: number
    }
    expect(paged).toMatchObject({ total: 3, members: [{ id: bobMember.id }] })
    const admins = (await ada.get('/organization/list-members?filterField=role&filterValue=admin')).json as {
      members: Member[]
    }
    expect(admins.members.map((member) => member.id)).toEqual([bobMember.id])

    // An admin cannot touch the owner, nor make an owner.
    const adaMember = listed.members.find((member) => member.userId === ada.userId) as Member
    expectRefusal(
      await bob.post('/organization/update-member-role', { memberId: adaMember.id, role: 'member' }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER',
    )
    expectRefusal(
      await bob.post('/organization/update-member-role', { memberId: catMember.id, role: 'owner' }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER',
    )
    expectRefusal(
      await cat.post('/organization/update-member-role', { memberId: bobMember.id, role: 'member' }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER',
    )
    expectRefusal(
      await bob.post('/organization/update-member-role', { memberId: catMember.id, role: 'wizard' }),
      400,
      'ROLE_NOT_FOUND',
    )
    expect(
      (
        await bob.post('/organization/update-member-role', {
          memberId: catMember.id,
          role: ['admin', 'member'],
        })
      ).json,
    ).toMatchObject({ role: 'admin,member' })
    // The only owner cannot step down.
    expectRefusal(
      await ada.post('/organization/update-member-role', { memberId: adaMember.id, role: 'admin' }),
      400,
      'YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER',
      'You cannot leave the organization without an owner',
    )

    // Removal: members cannot (401, as better-auth), nobody removes the only owner.
    const dan = await signUp(tessera, 'dan')
    await join(ada, org.id, dan, 'member')
    expectRefusal(
      await dan.post('/organization/remove-member', { memberIdOrEmail: catMember.id }),
      401,
      'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER',
    )
    expectRefusal(
      await ada.post('/organization/remove-member', { memberIdOrEmail: 'ada@example.com' }),
      400,
      'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
      'You cannot leave the organization as the only owner',
    )
    expectRefusal(
      await bob.post('/organization/remove-member', { memberIdOrEmail: 'nobody@example.com' }),
      400,
      'MEMBER_NOT_FOUND',
      'Member not found',
    )
    const removed = await bob.post('/organization/remove-member', { memberIdOrEmail: 'DAN@example.com' })
    expect(removed.json).toMatchObject({ member: { userId: dan.userId } })
    // The removed member's sessions forget the organization at once.
    expect((await activeOf(dan)).activeOrganizationId).toBeNull()

    expectRefusal(
      await ada.post('/organization/leave', { organizationId: org.id }),
      400,
      'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
    )
    expect((await cat.post('/organization/leave', { organizationId: org.id })).json).toMatchObject({
      id: catMember.id,
    })
    expectRefusal(await cat.post('/organization/leave', { organizationId: org.id }), 400, 'MEMBER_NOT_FOUND')
    expect((await activeOf(cat)).activeOrganizationId).toBeNull()
    expectRefusal(
      await cat.get(`/organization/list-members?organizationId=${org.id}`),
      403,
      'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
    )
  })

  it('metadata: create and update answer it parsed (no key without any), the reads give the stored text', async () => {
    const ada = await signUp(tessera, 'ada')
    const plain = await ada.post('/organization/create', { name: 'Plain', slug: 'plain' })
    expect(plain.json).not.toHaveProperty('metadata')
    const org = await create(ada, 'acme', { metadata: { plan: 'pro', n: 3 } })
    expect(org).toMatchObject({ metadata: { plan: 'pro', n: 3 } })
    const stored = (answer: unknown) => {
      const { metadata } = answer as { metadata: unknown }
      expect(typeof metadata).toBe('string')
      return JSON.parse(metadata as string)
    }

    const listed = (await ada.get('/organization/list')).json as { slug: string; metadata: unknown }[]
    expect(listed.find((entry) => entry.slug === 'plain')?.metadata).toBeNull()
    expect(stored(listed.find((entry) => entry.slug === 'acme'))).toEqual({ plan: 'pro', n: 3 })
    expect(stored((await ada.get('/organization/get-full-organization')).json)).toEqual({ plan: 'pro', n: 3 })
    expect((await ada.get('/organization/get-full-organization?organizationSlug=plain')).json).toMatchObject({
      metadata: null,
    })
    expect(stored((await ada.post('/organization/set-active', { organizationSlug: 'acme' })).json)).toEqual({
      plan: 'pro',
      n: 3,
    })

    // update answers the whole organization: the metadata it keeps, parsed, or no key.
    const renamed = await ada.post('/organization/update', { data: { name: 'Acme Inc' } })
    expect(renamed.json).toMatchObject({ name: 'Acme Inc', metadata: { plan: 'pro', n: 3 } })
    const plainId = (plain.json as { id: string }).id
    const untouched = await ada.post('/organization/update', { organizationId: plainId, data: { name: 'P' } })
    expect(untouched.json).toMatchObject({ name: 'P' })
    expect(untouched.json).not.toHaveProperty('metadata')
    const given = await ada.post('/organization/update', {
      organizationId: plainId,
      data: { metadata: { tier: 1 } },
    })
    expect(given.json).toMatchObject({ metadata: { tier: 1 } })
    expect(stored((await ada.post('/organization/delete', { organizationId: plainId })).json)).toEqual({
      tier: 1,
    })
  })

  it("remove-member by email and leave answer with the member's user, by member id without", async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const cat = await signUp(tessera, 'cat')
    const dan = await signUp(tessera, 'dan')
    const org = await create(ada, 'acme')
    const bobMember = await join(ada, org.id, bob, 'member')
    const catMember = await join(ada, org.id, cat, 'member')
    const danMember = await join(ada, org.id, dan, 'member')
    const userOf = (name: string, id: string) => ({ id, name, email: `${name}@example.com`, image: null })

    const byEmail = await ada.post('/organization/remove-member', { memberIdOrEmail: 'BOB@example.com' })
    expect(byEmail.json).toEqual({
      member: { ...bobMember, user: userOf('bob', bob.userId) },
    })
    const byId = await ada.post('/organization/remove-member', { memberIdOrEmail: catMember.id })
    expect(byId.json).toEqual({ member: catMember })
    const left = await dan.post('/organization/leave', { organizationId: org.id })
    expect(left.json).toEqual({ ...danMember, user: userOf('dan', dan.userId) })
  })

  it('leaving clears the organization from every session of the member, not only the caller', async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const org = await create(ada, 'acme')
    await join(ada, org.id, bob, 'member')
    const bobPhone = browserFor(tessera)
    expect(
      (await bobPhone.post('/sign-in/email', { email: 'bob@example.com', password: PASSWORD })).status,
    ).toBe(200)
    await bobPhone.post('/organization/set-active', { organizationId: org.id })
    expect((await activeOf(bobPhone)).activeOrganizationId).toBe(org.id)
    await bob.post('/organization/leave', { organizationId: org.id })
    expect((await activeOf(bobPhone)).activeOrganizationId).toBeNull()
  })

  it('has-permission answers from the role; several roles grant the union; nothing asked is denied', async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const eve = await signUp(tessera, 'eve')
    const org = await create(ada, 'acme')
    await join(ada, org.id, bob, 'admin')
    const ask = (device: Browser, permissions: unknown) =>
      device.post('/organization/has-permission', { organizationId: org.id, permissions })
    expect((await ask(ada, { organization: ['delete'] })).json).toEqual({ error: null, success: true })
    expect((await ask(bob, { organization: ['delete'] })).json).toEqual({ error: null, success: false })
    expect(
      (await ask(bob, { organization: ['update'], member: ['delete'], invitation: ['cancel'] })).json,
    ).toEqual({ error: null, success: true })
    expect((await ask(bob, {})).json).toEqual({ error: null, success: false })
    expectRefusal(await ask(eve, { member: ['delete'] }), 401, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION')
    expectRefusal(
      await eve.post('/organization/has-permission', { permissions: { member: ['delete'] } }),
      400,
      'NO_ACTIVE_ORGANIZATION',
    )
  })

  it('deletes (owners only): members forget it, the slug is free again', async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const org = await create(ada, 'acme')
    await join(ada, org.id, bob, 'admin')
    expectRefusal(
      await bob.post('/organization/delete', { organizationId: org.id }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION',
    )
    expect((await ada.post('/organization/delete', { organizationId: org.id })).json).toMatchObject({
      id: org.id,
      slug: 'acme',
    })
    expect((await activeOf(ada)).activeOrganizationId).toBeNull()
    expect((await activeOf(bob)).activeOrganizationId).toBeNull()
    expect((await bob.get('/organization/list')).json).toEqual([])
    expect((await ada.post('/organization/check-slug', { slug: 'acme' })).json).toEqual({ status: true })
    expectRefusal(
      await ada.post('/organization/delete', { organizationId: org.id }),
      400,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    )
  })

  it('the audit feed: owners and admins read who did what, newest first, paged; members may not', async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const org = await create(ada, 'acme')
    const bobMember = await join(ada, org.id, bob, 'member')
    expectRefusal(
      await bob.get(`/organization/activity?organizationId=${org.id}`),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION',
    )
    expect(
      JSON.stringify((await bob.get(`/organization/activity?organizationId=${org.id}`)).json),
    ).not.toContain('bob@example.com')
    const carol = await signUp(tessera, 'carol')
    const outsider = await carol.get(`/organization/activity?organizationId=${org.id}`)
    expect(outsider.status).toBe(403)
    expect(JSON.stringify(outsider.json)).not.toContain('bob@example.com')
    type Page = {
      entries: { type: string; actorUserId: string | null; details: Record<string, unknown> }[]
      nextCursor: string | null
    }
    await ada.post('/organization/update-member-role', { memberId: bobMember.id, role: 'admin' })
    // An admin reads whom an invitation was for (the address comes from the invitations read model).
    const asAdmin = (await bob.get(`/organization/activity?organizationId=${org.id}`)).json as Page
    expect(
      asAdmin.entries.find((entry) => entry.type === 'organization.invitation-created')?.details,
    ).toMatchObject({ email: 'bob@example.com', role: 'member' })
    await ada.post('/organization/remove-member', { memberIdOrEmail: bobMember.id })
    const all = (await ada.get(`/organization/activity?organizationId=${org.id}`)).json as Page
    expect(all.entries.map((entry) => entry.type).slice(0, 5)).toEqual([
      'organization.member-removed',
      'organization.member-role-updated',
      'organization.member-added',
      'organization.invitation-accepted',
      'organization.invitation-created',
    ])
    expect(all.entries[0]).toMatchObject({
      actorUserId: ada.userId,
      details: { userId: bob.userId, reason: 'removed' },
    })
    expect(all.entries.at(-1)?.type).toBe('organization.created')
    // The owner reads the invited address; the default team's creation reads as such.
    expect(
      all.entries.find((entry) => entry.type === 'organization.invitation-created')?.details,
    ).toMatchObject({
      email: 'bob@example.com',
    })
    expect(all.entries.find((entry) => entry.type === 'organization.team-created')?.details).toMatchObject({
      name: 'Org acme',
      defaultTeam: true,
    })
    const first = (await ada.get(`/organization/activity?organizationId=${org.id}&limit=2`)).json as Page
    const second = (
      await ada.get(`/organization/activity?organizationId=${org.id}&limit=2&cursor=${first.nextCursor}`)
    ).json as Page
    expect([...first.entries, ...second.entries]).toEqual(all.entries.slice(0, 4))
    expectRefusal(
      await ada.get(`/organization/activity?organizationId=${org.id}&cursor=bogus`),
      400,
      'VALIDATION_ERROR',
    )
  })
})
