/// A session whose active organization is no longer the member's. Leaving, removal and deletion
/// clear it from every session of the member at once; a set-active (or an accept) that raced the
/// removal can still be appended after it, and then the routes answer as better-auth does:
/// get-session shows the id, get-active-member 400 'Member not found', get-active-member-role 403,
/// and get-full-organization or set-active refuse with 403 and clear it.

import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sessionDecider, sessionStream } from '../../domain/session/session.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import type { Browser } from '../support/browser.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

type SessionJson = {
  session: { id: string; activeOrganizationId: string | null; activeTeamId: string | null }
}

const sessionOf = async (device: Browser) => ((await device.get('/get-session')).json as SessionJson).session

describe('a stale active organization (pglite)', { timeout: 180_000 }, () => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera()
  })
  afterEach(() => tessera.cleanup())

  /** Ada's organization, Bob a member of it with it active in his session. */
  const organizationWithBob = async () => {
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    const created = await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })
    const organizationId = (created.json as { id: string }).id
    const invited = await ada.post('/organization/invite-member', { email: bob.email, role: 'member' })
    const invitationId = (invited.json as { id: string }).id
    expect((await bob.post('/organization/accept-invitation', { invitationId })).status).toBe(200)
    expect((await sessionOf(bob)).activeOrganizationId).toBe(organizationId)
    return { ada, bob, organizationId }
  }

  /** What a set-active decided before the removal and appended after it leaves behind. */
  const raceSetActive = async (device: Browser & { userId: string }, organizationId: string) => {
    const { id } = await sessionOf(device)
    const origin = { requestId: randomUUID(), ip: null, userAgent: 'race' }
    await tessera.ctx.handle(
      sessionDecider,
      sessionStream(id),
      { type: 'set-active-organization', requestedBy: device.userId, organizationId, teamId: null },
      { metadata: metadataFor(origin, { type: 'user', userId: device.userId }, new Date()) },
    )
    expect((await sessionOf(device)).activeOrganizationId).toBe(organizationId)
  }

  it('removal and leaving clear it at once: get-active-member answers "No active organization"', async () => {
    const { ada, bob, organizationId } = await organizationWithBob()
    expect((await ada.post('/organization/remove-member', { memberIdOrEmail: bob.email })).status).toBe(200)
    expect(await sessionOf(bob)).toMatchObject({ activeOrganizationId: null, activeTeamId: null })
    expectRefusal(await bob.get('/organization/get-active-member'), 400, 'NO_ACTIVE_ORGANIZATION')
    expect((await bob.get('/organization/get-full-organization')).json).toBeNull()

    const cat = await signUp(tessera, 'cat')
    const invited = await ada.post('/organization/invite-member', { email: cat.email, role: 'admin' })
    const invitationId = (invited.json as { id: string }).id
    await cat.post('/organization/accept-invitation', { invitationId })
    expect((await cat.post('/organization/leave', { organizationId })).status).toBe(200)
    expect((await sessionOf(cat)).activeOrganizationId).toBeNull()
    expectRefusal(await cat.get('/organization/get-active-member-role'), 400, 'NO_ACTIVE_ORGANIZATION')
  })

  it('deletion clears it from every member: get-full-organization answers null', async () => {
    const { ada, bob, organizationId } = await organizationWithBob()
    expect((await ada.post('/organization/delete', { organizationId })).status).toBe(200)
    for (const device of [ada, bob]) {
      expect((await sessionOf(device)).activeOrganizationId).toBeNull()
      expect((await device.get('/organization/get-full-organization')).json).toBeNull()
      expectRefusal(await device.get('/organization/get-active-member'), 400, 'NO_ACTIVE_ORGANIZATION')
    }
  })

  it('a set-active that raced the removal: get-active-member refuses; get-full-organization refuses and clears', async () => {
    const { ada, bob, organizationId } = await organizationWithBob()
    await ada.post('/organization/remove-member', { memberIdOrEmail: bob.email })
    await raceSetActive(bob, organizationId)
    expectRefusal(
      await bob.get('/organization/get-active-member'),
      400,
      'MEMBER_NOT_FOUND',
      'Member not found',
    )
    expectRefusal(
      await bob.get('/organization/get-active-member-role'),
      403,
      'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
    )
    expectRefusal(
      await bob.get('/organization/get-full-organization'),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    )
    expect((await sessionOf(bob)).activeOrganizationId).toBeNull()
    // Cleared, the session answers as one without an active organization.
    expect((await bob.get('/organization/get-full-organization')).json).toBeNull()

    // set-active with nothing named checks the stale one, refuses and clears it too.
    await raceSetActive(bob, organizationId)
    expectRefusal(
      await bob.post('/organization/set-active', {}),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    )
    expect((await sessionOf(bob)).activeOrganizationId).toBeNull()
  })

  it('a stale organization that was deleted: get-full-organization answers "Organization not found" and clears it', async () => {
    const { ada, bob, organizationId } = await organizationWithBob()
    await ada.post('/organization/delete', { organizationId })
    await raceSetActive(bob, organizationId)
    expectRefusal(
      await bob.get('/organization/get-full-organization'),
      400,
      'ORGANIZATION_NOT_FOUND',
      'Organization not found',
    )
    expect((await sessionOf(bob)).activeOrganizationId).toBeNull()
    // Named explicitly, an unknown organization leaves the session's own alone.
    const own = await bob.post('/organization/create', { name: 'Bob & Co', slug: 'bob-co' })
    expectRefusal(
      await bob.get(`/organization/get-full-organization?organizationId=${organizationId}`),
      400,
      'ORGANIZATION_NOT_FOUND',
    )
    expect((await sessionOf(bob)).activeOrganizationId).toBe((own.json as { id: string }).id)
  })
})
