/// Bans hold on every way in: an API key whose owner is banned opens no session (403 BANNED_USER),
/// and works again once the ban is lifted. (Password and username sign-ins: admin.int.spec.ts.)
/// update-user writes the ban fields as better-auth does, each one given and no other; ban-user
/// takes banExpiresIn 0 as left out and a negative one as a ban already over.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { userStream } from '../../domain/user/user.js'
import { browserFor, devicesFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SERVER_KEY = 'backend-key-0123456789abcdef0123456789'
const PASSWORD = 'a good password'

type UserJson = { banned: boolean; banReason: string | null; banExpires: string | null }

describe('bans and API-key sessions (pglite)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({
      env: { SERVER_KEYS: `ops=${SERVER_KEY}` },
      features: { apiKey: { enableSessionForAPIKeys: true } },
    })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  const admin = (path: string, body: unknown) =>
    tessera.api.request('POST', path, body, { 'x-tessera-server-key': SERVER_KEY })
  let people = 0
  const signedUp = async () => {
    people += 1
    const email = `person${people}@example.com`
    const device = await devicesFor(() => tessera, PASSWORD).signedUp(email)
    return { device, email, userId: ((await device.session())?.user.id ?? '') as string }
  }
  const update = async (userId: string, data: object) => {
    const answer = await admin('/admin/update-user', { userId, data })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    return answer.json as UserJson
  }
  const signIn = (email: string) => browserFor(tessera).post('/sign-in/email', { email, password: PASSWORD })
  const eventsOf = async (userId: string) =>
    (await tessera.store.readStream(userStream(userId))).filter((event) => event.type.includes('ban'))

  it("refuses a banned owner's key, and lets it in once unbanned", async () => {
    const ada = await devicesFor(() => tessera, 'a good password').signedUp('ada@example.com')
    const userId = ((await ada.session())?.user.id ?? '') as string
    const created = (await ada.post('/api-key/create', { name: 'cli' })).json as { key: string }
    const asKey = () => tessera.api.request('GET', '/get-session', undefined, { 'x-api-key': created.key })
    const admin = (path: string, body: unknown) =>
      tessera.api.request('POST', path, body, { 'x-tessera-server-key': SERVER_KEY })

    expect((await asKey()).status).toBe(200)
    expect((await admin('/admin/ban-user', { userId })).status).toBe(200)
    expect(await asKey()).toMatchObject({ status: 403, json: { code: 'BANNED_USER' } })
    expect(await ada.session()).toBeNull()
    expect((await admin('/admin/unban-user', { userId })).status).toBe(200)
    expect((await asKey()).status).toBe(200)
  })

  it('update-user sets banReason and banExpires without banning; banned:true keeps them, as better-auth', async () => {
    const { device, userId } = await signedUp()
    const later = '2099-01-01T00:00:00.000Z'
    expect(await update(userId, { banReason: 'later' })).toMatchObject({
      banned: false,
      banReason: 'later',
      banExpires: null,
    })
    expect(await update(userId, { banExpires: later })).toMatchObject({
      banned: false,
      banReason: 'later',
      banExpires: later,
    })
    // Setting them bans nobody: the session lives on.
    expect(await device.session()).not.toBeNull()
    expect(await update(userId, { banned: true })).toMatchObject({
      banned: true,
      banReason: 'later',
      banExpires: later,
    })
    expect(await device.session()).toBeNull()
    expect(await update(userId, { banReason: null })).toMatchObject({ banned: true, banReason: null })
    const events = await eventsOf(userId)
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['user.ban-details-set', { userId, reason: 'later', expiresAt: null }],
      ['user.ban-details-set', { userId, reason: 'later', expiresAt: later }],
      ['user.banned', { userId, reason: 'later', expiresAt: later }],
      ['user.ban-details-set', { userId, reason: null, expiresAt: later }],
    ])
    for (const event of events) expect(event.metadata.actor).toEqual({ type: 'server', name: 'ops' })
    expect(await admin('/admin/unban-user', { userId })).toMatchObject({
      json: { user: { banned: false, banReason: null, banExpires: null } },
    })
  })

  it('update-user {banned:true} alone leaves the reason null (no default reason, as better-auth)', async () => {
    const { email, userId } = await signedUp()
    expect(await update(userId, { banned: true })).toMatchObject({
      banned: true,
      banReason: null,
      banExpires: null,
    })
    expect(await signIn(email)).toMatchObject({ status: 403, json: { code: 'BANNED_USER' } })
    // Given together, they are written together, in one ban.
    const other = await signedUp()
    const until = new Date(Date.now() + 3_600_000).toISOString()
    expect(await update(other.userId, { banned: true, banReason: 'Spam', banExpires: until })).toMatchObject({
      banned: true,
      banReason: 'Spam',
      banExpires: until,
    })
    expect((await eventsOf(other.userId)).map((event) => event.type)).toEqual(['user.banned'])
  })

  it('ban-user: banExpiresIn 0 is a ban without end; a negative one is over at the next sign-in', async () => {
    const forGood = await signedUp()
    const zero = await admin('/admin/ban-user', { userId: forGood.userId, banExpiresIn: 0 })
    expect(zero).toMatchObject({ status: 200, json: { user: { banned: true, banExpires: null } } })
    expect((await signIn(forGood.email)).status).toBe(403)

    const over = await signedUp()
    const past = await admin('/admin/ban-user', { userId: over.userId, banExpiresIn: -60 })
    expect(past.status).toBe(200)
    const { user } = past.json as { user: UserJson }
    expect(user.banned).toBe(true)
    expect(Date.parse(user.banExpires ?? '')).toBeLessThan(Date.now())
    // The ban still ended the open session, as better-auth's does.
    expect(await over.device.session()).toBeNull()
    expect((await signIn(over.email)).status).toBe(200)
    expect((await eventsOf(over.userId)).at(-1)).toMatchObject({
      type: 'user.unbanned',
      data: { expired: true },
    })
  })
})
