/// The signed-out invitation preview (GET /organization/invitation-preview, Tessera's own): what the
/// portal's /accept-invitation/:id shows before sign-in. better-auth's get-invitation needs the
/// invitee's session; the preview needs only the invitation id and tells the organization's name
/// and the inviter's name, nothing else, and only while the invitation can still be accepted.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const T0 = Date.parse('2026-11-27T10:00:00Z')
const HOUR = 3_600_000

describe('the signed-out invitation preview (pglite)', { timeout: 180_000 }, () => {
  let tessera: TestTessera
  let now = T0
  beforeEach(async () => {
    now = T0
    tessera = await startTessera({ clock: () => new Date(now) })
  })
  afterEach(() => tessera.cleanup())

  /** Ada Lovelace owns Acme and invites `email`; the invitation's id. */
  const invitationFrom = async (ada: Awaited<ReturnType<typeof signUp>>, email: string) => {
    const response = await ada.post('/organization/invite-member', { email, role: 'admin' })
    expect(response.status).toBe(200)
    return (response.json as { id: string }).id
  }
  const adaWithAcme = async () => {
    const ada = await signUp(tessera, 'ada')
    expect((await ada.post('/update-user', { name: 'Ada Lovelace' })).status).toBe(200)
    expect((await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })).status).toBe(200)
    return ada
  }
  const preview = (id: string) => browserFor(tessera).get(`/organization/invitation-preview?id=${id}`)

  it('tells a signed-out holder of the id the organization and the inviter, and nothing personal else', async () => {
    const ada = await adaWithAcme()
    const id = await invitationFrom(ada, 'grace@example.com')
    const answer = await preview(id)
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({
      organizationName: 'Acme',
      inviterName: 'Ada Lovelace',
      expiresAt: new Date(T0 + 48 * HOUR).toISOString(),
    })
    // Neither address, nor the role or any id, is in the answer.
    for (const secret of ['grace@example.com', 'ada@example.com', 'admin', ada.userId])
      expect(answer.body).not.toContain(secret)
    // better-auth's get-invitation stays for the signed-in invitee only.
    expect((await browserFor(tessera).get(`/organization/get-invitation?id=${id}`)).status).toBe(401)
  })

  it('answers "Invitation not found!" alike for an unknown, answered, canceled or expired invitation', async () => {
    const ada = await adaWithAcme()
    const unknown = await preview('x'.repeat(32))
    expectRefusal(unknown, 400, 'INVITATION_NOT_FOUND', 'Invitation not found!')

    const grace = await signUp(tessera, 'grace')
    const rejected = await invitationFrom(ada, grace.email)
    expect((await grace.post('/organization/reject-invitation', { invitationId: rejected })).status).toBe(200)
    const canceled = await invitationFrom(ada, 'linus@example.com')
    expect((await ada.post('/organization/cancel-invitation', { invitationId: canceled })).status).toBe(200)
    const accepted = await invitationFrom(ada, grace.email)
    expect((await grace.post('/organization/accept-invitation', { invitationId: accepted })).status).toBe(200)
    const expired = await invitationFrom(ada, 'ken@example.com')
    now = T0 + 48 * HOUR
    for (const id of [rejected, canceled, accepted, expired]) {
      const answer = await preview(id)
      expectRefusal(answer, 400, 'INVITATION_NOT_FOUND', 'Invitation not found!')
      expect(answer.body).toBe(unknown.body)
    }
  })

  it('says nothing once the inviter has left the organization or the organization is gone', async () => {
    const ada = await adaWithAcme()
    const bob = await signUp(tessera, 'bob')
    const toBob = await invitationFrom(ada, bob.email)
    await bob.post('/organization/accept-invitation', { invitationId: toBob })
    const list = await ada.get('/organization/list-members')
    const bobMember = (list.json as { members: { id: string; userId: string }[] }).members.find(
      (member) => member.userId === bob.userId,
    )
    expect(
      (await ada.post('/organization/update-member-role', { memberId: bobMember?.id, role: 'owner' })).status,
    ).toBe(200)
    const fromAda = await invitationFrom(ada, 'grace@example.com')
    expect((await preview(fromAda)).status).toBe(200)
    const organizationId = ((await ada.get('/organization/get-full-organization')).json as { id: string }).id
    expect((await ada.post('/organization/leave', { organizationId })).status).toBe(200)
    expectRefusal(await preview(fromAda), 400, 'INVITATION_NOT_FOUND')

    const fromBob = await invitationFrom(bob, 'ken@example.com')
    expect((await preview(fromBob)).json).toMatchObject({ inviterName: 'bob' })
    expect((await bob.post('/organization/delete', { organizationId })).status).toBe(200)
    expectRefusal(await preview(fromBob), 400, 'INVITATION_NOT_FOUND')
  })
})
