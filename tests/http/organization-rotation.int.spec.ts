/// Invitations across a rotation of AUTH_SECRET, on one PGlite data directory kept while Tessera is
/// stopped and started again: an invitation made under secret A opens, can be read and accepted by
/// its invitee once A is retired and once it is gone (after `tessera rotate-secret`), and erasing the
/// invitee's account after the rotation still erases the address it was sent to (the invitee's key
/// is named from the store's claim key, which a rotation does not change); the address can then be
/// invited again, under a new key.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, describe, expect, it } from 'vitest'
import { createTessera, type Tessera } from '../../app/server/tessera.js'
import { subjectOf } from '../../domain/events.js'
import { organizationStream } from '../../domain/organization/organization.js'
import { loadConfig } from '../../infra/config/config.js'
import { browserFor } from '../support/browser.js'
import { type TestTessera, testClient } from '../support/tessera.js'

const SECRET_A = 'secret-a-before-the-rotation-0123456789abcdef'
const SECRET_B = 'secret-b-after-the-rotation-0123456789abcdef'
const PASSWORD = 'correct-horse-battery-staple'

describe('invitations across a secret rotation (pglite)', { timeout: 300_000 }, () => {
  const cwd = mkdtempSync(join(tmpdir(), 'tessera-invitation-rotation-'))
  writeFileSync(
    join(cwd, 'tessera.config.json'),
    JSON.stringify({ user: { deleteUser: { immediate: true } } }),
  )
  let running: Tessera | null = null
  const target = { api: null as unknown as TestTessera['api'] } as TestTessera
  const start = async (env: Record<string, string>): Promise<Tessera> => {
    await running?.close()
    running = null
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: join(cwd, 'data'), ...env }, { cwd })
    running = await createTessera({ config, logger: pino({ level: 'silent' }) })
    target.api = testClient(running)
    return running
  }
  afterAll(async () => {
    await running?.close()
    rmSync(cwd, { recursive: true, force: true })
  })

  const ada = browserFor(target)
  const grace = browserFor(target)
  const ken = browserFor(target)
  let organizationId = ''
  const invitations: Record<string, string> = {}
  const signUp = (device: typeof ada, name: string) =>
    device.post('/sign-up/email', { name, email: `${name}@example.com`, password: PASSWORD })
  const createdFor = async (tessera: Tessera, invitationId: string) =>
    (await tessera.store.readStream(organizationStream(organizationId))).find(
      (event) =>
        event.type === 'organization.invitation-created' &&
        (event.data as { invitationId?: string }).invitationId === invitationId,
    )

  it('under secret A, Ada invites Grace and Ken, who have no accounts yet', async () => {
    await start({ AUTH_SECRET: SECRET_A })
    expect((await signUp(ada, 'ada')).status).toBe(200)
    const created = await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })
    organizationId = (created.json as { id: string }).id
    for (const name of ['grace', 'ken']) {
      const invited = await ada.post('/organization/invite-member', {
        email: `${name}@example.com`,
        role: 'member',
      })
      expect(invited.status).toBe(200)
      invitations[name] = (invited.json as { id: string }).id
    }
  })

  it('with A retired and `rotate-secret` run, the invitations still open', async () => {
    const tessera = await start({ AUTH_SECRET: SECRET_B, AUTH_SECRET_PREVIOUS: SECRET_A })
    expect((await tessera.keyring.rewrapAll()).unreadable).toEqual([])
    expect((await createdFor(tessera, invitations.grace ?? ''))?.data).toMatchObject({
      email: 'grace@example.com',
    })
  })

  it('with A gone, Grace signs up, reads and accepts hers; Ada sees her as a member', async () => {
    const tessera = await start({ AUTH_SECRET: SECRET_B })
    expect((await createdFor(tessera, invitations.grace ?? ''))?.data).toMatchObject({
      email: 'grace@example.com',
    })
    expect((await signUp(grace, 'grace')).status).toBe(200)
    const read = await grace.get(`/organization/get-invitation?id=${invitations.grace}`)
    expect(read.json).toMatchObject({
      email: 'grace@example.com',
      organizationName: 'Acme',
      status: 'pending',
    })
    const accepted = await grace.post('/organization/accept-invitation', { invitationId: invitations.grace })
    expect(accepted.json).toMatchObject({ invitation: { status: 'accepted' }, member: { role: 'member' } })
    // Ada's cookie was signed under A, now gone: she signs in again.
    expect((await ada.post('/sign-in/email', { email: 'ada@example.com', password: PASSWORD })).status).toBe(
      200,
    )
    const members = (await ada.get(`/organization/list-members?organizationId=${organizationId}`)).json as {
      members: { user: { email: string } }[]
    }
    expect(members.members.map((member) => member.user.email).sort()).toEqual([
      'ada@example.com',
      'grace@example.com',
    ])
  })

  it("erasing Ken's account after the rotation erases the address his invitation was sealed under", async () => {
    const tessera = running as Tessera
    expect((await signUp(ken, 'ken')).status).toBe(200)
    expect((await ken.post('/delete-user', {})).status).toBe(200)
    const erased = await createdFor(tessera, invitations.ken ?? '')
    expect(erased?.metadata.erased).toBe(true)
    expect(erased?.data).toMatchObject({ email: null })
    // The address can be invited again: the erased key stays erased, a new one seals the new invitation.
    const again = await ada.post('/organization/invite-member', {
      email: 'ken@example.com',
      role: 'member',
      organizationId,
    })
    expect(again.status).toBe(200)
    const renewed = await createdFor(tessera, (again.json as { id: string }).id)
    expect(renewed?.data).toMatchObject({ email: 'ken@example.com' })
    expect(renewed?.metadata.erased).toBeUndefined()
    expect(subjectOf(renewed as NonNullable<typeof renewed>)).not.toBe(
      subjectOf(erased as NonNullable<typeof erased>),
    )
    // Grace's own invitation is hers, not Ken's: still readable.
    expect((await createdFor(tessera, invitations.grace ?? ''))?.data).toMatchObject({
      email: 'grace@example.com',
    })
  })

  it('an erasure between naming the key and sealing under it: the invitation is sealed under the next key', async () => {
    const tessera = running as Tessera
    const { personKeys } = tessera.ctx
    // The address's holder deletes their account right after the invitation named its key.
    let raced = false
    tessera.ctx.personKeys = {
      claimKey: () => personKeys.claimKey(),
      canSeal: async (subject) => {
        const sealable = await personKeys.canSeal(subject)
        if (sealable && !raced && subject.startsWith('invitee:')) {
          raced = true
          await tessera.keyring.destroy(subject)
        }
        return sealable
      },
    }
    try {
      const invited = await ada.post('/organization/invite-member', {
        email: 'linus@example.com',
        role: 'member',
        organizationId,
      })
      expect([raced, invited.status]).toEqual([true, 200])
      const created = await createdFor(tessera, (invited.json as { id: string }).id)
      expect(created?.data).toMatchObject({ email: 'linus@example.com' })
      expect(subjectOf(created as NonNullable<typeof created>)).toMatch(/^invitee:.+:1$/)
    } finally {
      tessera.ctx.personKeys = personKeys
    }
  })
})
