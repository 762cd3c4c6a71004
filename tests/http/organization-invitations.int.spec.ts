/// Invitations over HTTP: invite (mailed through the mail reactor with BASE_URL/accept-invitation/<id>),
/// get, list, accept (member and active organization at once), reject, cancel, expiry after 48 h,
/// the recipient check, verified email for list-user-invitations (and no `email` from a client), the
/// membership limit under concurrency (two accepts for the last seat: one wins), accept against
/// cancel, the invitee's address sealed under the invitee's key and erased with their account, and
/// account deletion by an only owner refused.

import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runUserCommand } from '../../command-api/shared/run-user-command.js'
import { organizationStream } from '../../domain/organization/organization.js'
import { browserFor } from '../support/browser.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const T0 = Date.parse('2030-03-01T09:00:00.000Z')
const HOUR = 3_600_000
const origin = { requestId: 'test', ip: null, userAgent: null }

let sink: SmtpSink
beforeAll(async () => {
  sink = await startSmtpSink()
})
afterAll(() => sink.close())

describe('organization invitations (pglite)', { timeout: 180_000 }, () => {
  let tessera: TestTessera
  let now = T0
  const start = async (features: object = {}, env: Record<string, string> = {}) => {
    tessera = await startTessera({
      clock: () => new Date(now),
      env: { SMTP_URL: sink.url, BASE_URL: 'http://tessera.test', ...env },
      features,
    })
  }
  beforeEach(() => {
    now = T0
    sink.clear()
  })
  afterEach(() => tessera.cleanup())

  const orgOf = async (device: Awaited<ReturnType<typeof signUp>>, slug: string) => {
    const response = await device.post('/organization/create', { name: `Org ${slug}`, slug })
    expect(response.status).toBe(200)
    return (response.json as { id: string }).id
  }
  const invite = async (device: Awaited<ReturnType<typeof signUp>>, body: Record<string, unknown>) =>
    device.post('/organization/invite-member', body)
  const verify = (userId: string, email: string) =>
    runUserCommand(tessera.ctx, origin, userId, { type: 'verify-email', email })

  it('invites by mail; the invitee reads, accepts and becomes a member with the organization active', async () => {
    await start()
    const ada = await signUp(tessera, 'ada')
    const organizationId = await orgOf(ada, 'acme')
    const invited = await invite(ada, { email: 'Bob@Example.com', role: 'admin' })
    expect(invited.status).toBe(200)
    const invitation = invited.json as {
      id: string
      email: string
      status: string
      expiresAt: string
      inviterId: string
    }
    expect(invitation).toMatchObject({
      email: 'bob@example.com',
      status: 'pending',
      inviterId: ada.userId,
      role: 'admin',
    })
    expect(Date.parse(invitation.expiresAt) - T0).toBe(48 * HOUR)
    expect(invitation.id).toMatch(/^[A-Za-z0-9]{32}$/)

    const mail = await sink.waitForMail((candidate) => candidate.to.includes('bob@example.com'), 15_000)
    expect(mail.subject).toBe('You are invited to join “Org acme”')
    expect(mail.text).toContain(`http://tessera.test/accept-invitation/${invitation.id}`)
    // The invited address rides along, so signing up from the link starts with it filled in.
    expect(mail.links.some((link) => new URL(link).searchParams.get('email') !== null)).toBe(true)
    expect(mail.text).toContain('ada@example.com')

    expectRefusal(
      await invite(ada, { email: 'bob@example.com', role: 'member' }),
      400,
      'USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION',
    )
    expect((await invite(ada, { email: 'bob@example.com', role: 'member', resend: true })).status).toBe(200)

    const bob = await signUp(tessera, 'bob')
    const eve = await signUp(tessera, 'eve')
    const read = await bob.get(`/organization/get-invitation?id=${invitation.id}`)
    expect(read.json).toMatchObject({
      id: invitation.id,
      organizationName: 'Org acme',
      organizationSlug: 'acme',
      inviterEmail: 'ada@example.com',
    })
    expectRefusal(
      await eve.get(`/organization/get-invitation?id=${invitation.id}`),
      403,
      'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION',
      'You are not the recipient of the invitation',
    )
    expectRefusal(
      await eve.post('/organization/accept-invitation', { invitationId: invitation.id }),
      403,
      'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION',
    )

    // list-user-invitations needs a verified address.
    expectRefusal(
      await bob.get('/organization/list-user-invitations'),
      403,
      'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION',
    )
    await verify(bob.userId, 'bob@example.com')
    expect((await bob.get('/organization/list-user-invitations')).json).toEqual([
      expect.objectContaining({ id: invitation.id, organizationName: 'Org acme' }),
    ])
    // As better-auth: an address is for its server-side calls only, and nobody signed in names nobody.
    const clientSide = 'User email cannot be passed for client side API calls.'
    for (const caller of [bob, ada, browserFor(tessera)])
      expectRefusal(
        await caller.get('/organization/list-user-invitations?email=bob%40example.com'),
        400,
        'BAD_REQUEST',
        clientSide,
      )
    expectRefusal(
      await browserFor(tessera).get('/organization/list-user-invitations'),
      400,
      'BAD_REQUEST',
      'Missing session headers, or email query parameter.',
    )

    const accepted = await bob.post('/organization/accept-invitation', { invitationId: invitation.id })
    expect(accepted.json).toMatchObject({
      invitation: { id: invitation.id, status: 'accepted' },
      member: { userId: bob.userId, organizationId, role: 'admin' },
    })
    expect(
      ((await bob.get('/get-session')).json as { session: { activeOrganizationId: string } }).session
        .activeOrganizationId,
    ).toBe(organizationId)
    expectRefusal(
      await bob.post('/organization/accept-invitation', { invitationId: invitation.id }),
      400,
      'INVITATION_NOT_FOUND',
      'Invitation not found',
    )
    expect((await ada.get('/organization/list-invitations')).json).toEqual([
      expect.objectContaining({ status: 'accepted' }),
    ])
    expectRefusal(
      await eve.get(`/organization/list-invitations?organizationId=${organizationId}`),
      403,
      'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
    )
    // Signed out: the spec's (and better-auth's) 'Not authenticated'.
    const signedOut = browserFor(tessera)
    for (const path of [
      `/organization/list-invitations?organizationId=${organizationId}`,
      `/organization/get-invitation?id=${invitation.id}`,
    ])
      expectRefusal(await signedOut.get(path), 401, 'UNAUTHORIZED', 'Not authenticated')
    expectRefusal(
      await invite(ada, { email: 'bob@example.com', role: 'member' }),
      400,
      'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION',
    )
  })

  it('refuses members inviting, admins inviting owners, unknown roles and bad addresses', async () => {
    await start()
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const cat = await signUp(tessera, 'cat')
    const organizationId = await orgOf(ada, 'acme')
    for (const [who, role] of [
      [bob, 'admin'],
      [cat, 'member'],
    ] as const) {
      const id = ((await invite(ada, { email: who.email, role })).json as { id: string }).id
      expect((await who.post('/organization/accept-invitation', { invitationId: id })).status).toBe(200)
    }
    expectRefusal(
      await cat.post('/organization/invite-member', {
        email: 'x@example.com',
        role: 'member',
        organizationId,
      }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION',
      'You are not allowed to invite users to this organization',
    )
    expectRefusal(
      await bob.post('/organization/invite-member', {
        email: 'x@example.com',
        role: 'owner',
        organizationId,
      }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE',
      'You are not allowed to invite a user with this role',
    )
    expectRefusal(
      await bob.post('/organization/invite-member', {
        email: 'x@example.com',
        role: 'wizard',
        organizationId,
      }),
      400,
      'ROLE_NOT_FOUND',
    )
    expectRefusal(
      await bob.post('/organization/invite-member', {
        email: 'not-an-email',
        role: 'member',
        organizationId,
      }),
      400,
      'INVALID_EMAIL',
    )
    const eve = await signUp(tessera, 'eve')
    expectRefusal(
      await eve.post('/organization/invite-member', { email: 'x@example.com', role: 'member' }),
      400,
      'ORGANIZATION_NOT_FOUND',
    )

    // Cancel needs the cancel permission; a canceled invitation cannot be accepted.
    const pending = (
      (
        await bob.post('/organization/invite-member', {
          email: 'zed@example.com',
          role: 'member',
          organizationId,
        })
      ).json as { id: string }
    ).id
    expectRefusal(
      await cat.post('/organization/cancel-invitation', { invitationId: pending }),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION',
    )
    expect((await bob.post('/organization/cancel-invitation', { invitationId: pending })).json).toMatchObject(
      { id: pending, status: 'canceled' },
    )
    const zed = await signUp(tessera, 'zed')
    expectRefusal(
      await zed.post('/organization/accept-invitation', { invitationId: pending }),
      400,
      'INVITATION_NOT_FOUND',
    )
    expectRefusal(
      await bob.post('/organization/cancel-invitation', { invitationId: 'nope' }),
      400,
      'INVITATION_NOT_FOUND',
    )
  })

  it('expires after 48 hours; a rejection ends the invitation', async () => {
    await start()
    const ada = await signUp(tessera, 'ada')
    await orgOf(ada, 'acme')
    const bob = await signUp(tessera, 'bob')
    const first = ((await invite(ada, { email: 'bob@example.com', role: 'member' })).json as { id: string })
      .id
    now = T0 + 48 * HOUR
    expectRefusal(
      await bob.get(`/organization/get-invitation?id=${first}`),
      400,
      'INVITATION_NOT_FOUND',
      'Invitation not found!',
    )
    expectRefusal(
      await bob.post('/organization/accept-invitation', { invitationId: first }),
      400,
      'INVITATION_NOT_FOUND',
    )
    // The expired one no longer blocks a new invitation.
    const second = ((await invite(ada, { email: 'bob@example.com', role: 'member' })).json as { id: string })
      .id
    expect((await bob.post('/organization/reject-invitation', { invitationId: second })).json).toMatchObject({
      invitation: { id: second, status: 'rejected' },
      member: null,
    })
    expectRefusal(
      await bob.post('/organization/reject-invitation', { invitationId: second }),
      400,
      'INVITATION_NOT_FOUND',
      'Invitation not found!',
    )
    expectRefusal(
      await bob.post('/organization/accept-invitation', { invitationId: second }),
      400,
      'INVITATION_NOT_FOUND',
    )
  })

  it('the membership limit holds under concurrency: two accepts for the last seat, one wins', async () => {
    await start({ organization: { membershipLimit: 2 } })
    const ada = await signUp(tessera, 'ada')
    await orgOf(ada, 'acme')
    const people = [await signUp(tessera, 'bob'), await signUp(tessera, 'cat')]
    const ids: string[] = []
    for (const person of people)
      ids.push(((await invite(ada, { email: person.email, role: 'member' })).json as { id: string }).id)
    const answers = await Promise.all(
      people.map((person, index) =>
        person.post('/organization/accept-invitation', { invitationId: ids[index] }),
      ),
    )
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403])
    const refused = answers.find((answer) => answer.status === 403)
    if (refused)
      expectRefusal(
        refused,
        403,
        'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED',
        'Organization membership limit reached',
      )
    expect(((await ada.get('/organization/list-members')).json as { total: number }).total).toBe(2)
  })

  it('accept against cancel: exactly one of them happens, never an accepted invitation without its member', async () => {
    await start()
    const ada = await signUp(tessera, 'ada')
    const organizationId = await orgOf(ada, 'acme')
    const bob = await signUp(tessera, 'bob')
    const id = ((await invite(ada, { email: 'bob@example.com', role: 'member' })).json as { id: string }).id
    const [accepted, canceled] = await Promise.all([
      bob.post('/organization/accept-invitation', { invitationId: id }),
      ada.post('/organization/cancel-invitation', { invitationId: id }),
    ])
    expect([accepted.status, canceled.status].filter((status) => status === 200)).toHaveLength(1)
    const members = (
      (await ada.get(`/organization/list-members?organizationId=${organizationId}`)).json as { total: number }
    ).total
    const status = ((await ada.get('/organization/list-invitations')).json as { status: string }[])[0]?.status
    expect({ status, members }).toEqual(
      accepted.status === 200 ? { status: 'accepted', members: 2 } : { status: 'canceled', members: 1 },
    )
  })

  it("seals the invitee's address under the invitee's key, erased with their account", async () => {
    await start({ user: { deleteUser: { enabled: true, immediate: true } } })
    const ada = await signUp(tessera, 'ada')
    const organizationId = await orgOf(ada, 'acme')
    await invite(ada, { email: 'bob@example.com', role: 'member' })
    const raw = async () =>
      (
        await sql<{ text: string }>`select data::text as text from tessera_events`.execute(
          tessera.database.db,
        )
      ).rows
        .map((row) => row.text)
        .join('\n')
    expect(await raw()).not.toContain('bob@example.com')
    const created = async () =>
      (await tessera.store.readStream(organizationStream(organizationId))).find(
        (event) => event.type === 'organization.invitation-created',
      )
    expect((await created())?.data).toMatchObject({ email: 'bob@example.com' })

    const bob = await signUp(tessera, 'bob')
    expect((await bob.post('/delete-user', {})).status).toBe(200)
    const erased = await created()
    expect(erased?.data).toMatchObject({ email: null })
    expect(erased?.metadata.erased).toBe(true)
    // The inviter's events stay readable.
    expect(
      (await tessera.store.readStream(organizationStream(organizationId)))[0]?.metadata.erased,
    ).toBeUndefined()
    expect((await ada.get('/organization/list-invitations')).json).toEqual([])
  })

  it("an operator's removal erases the invitee's address with the account, and spares no only owner", async () => {
    const serverKey = 'backend-key-0123456789abcdef0123456789'
    await start({}, { SERVER_KEYS: `support=${serverKey}` })
    const removeUser = (userId: string) =>
      tessera.api.request('POST', '/admin/remove-user', { userId }, { 'x-tessera-server-key': serverKey })
    const ada = await signUp(tessera, 'ada')
    const organizationId = await orgOf(ada, 'acme')
    await invite(ada, { email: 'bob@example.com', role: 'member' })
    const created = async () =>
      (await tessera.store.readStream(organizationStream(organizationId))).find(
        (event) => event.type === 'organization.invitation-created',
      )
    const bob = await signUp(tessera, 'bob')
    expect((await removeUser(bob.userId)).status).toBe(200)
    // Erased in the deletion's own transaction: readable neither here nor after a crash.
    expect((await created())?.metadata.erased).toBe(true)
    expect((await created())?.data).toMatchObject({ email: null })
    expectRefusal(await removeUser(ada.userId), 400, 'ONLY_OWNER_OF_AN_ORGANIZATION')
  })

  it("refuses to delete the account of an organization's only owner, and allows it once another owner exists", async () => {
    await start({ user: { deleteUser: { enabled: true, immediate: true } } })
    const ada = await signUp(tessera, 'ada')
    const organizationId = await orgOf(ada, 'acme')
    expectRefusal(await ada.post('/delete-user', {}), 400, 'ONLY_OWNER_OF_AN_ORGANIZATION')
    const bob = await signUp(tessera, 'bob')
    const id = ((await invite(ada, { email: 'bob@example.com', role: 'owner' })).json as { id: string }).id
    expect((await bob.post('/organization/accept-invitation', { invitationId: id })).status).toBe(200)
    expect((await ada.post('/delete-user', {})).status).toBe(200)
    const members = (await bob.get(`/organization/list-members?organizationId=${organizationId}`)).json as {
      members: { userId: string }[]
    }
    expect(members.members.map((member) => member.userId)).toEqual([bob.userId])
    // Bob is now the only owner: he cannot leave.
    expectRefusal(
      await bob.post('/organization/leave', { organizationId }),
      400,
      'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
    )
  })
})
