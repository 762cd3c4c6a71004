/// The admin API's other callers and its audit view: a backend with a server key may do what an
/// admin may (its actions recorded as `server:<name>`), and /admin/audit lists every operator
/// action across the service, newest first, filterable by the acting admin and by action, with the
/// addresses of the acting user and of the account while those accounts exist.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { userStream } from '../../domain/user/user.js'
import { browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const SERVER_KEY = 'backend-key-0123456789abcdef0123456789'
const KEY_HEADER = { 'x-tessera-server-key': SERVER_KEY }

type Action = {
  action: string
  actor: { type: string; id: string | null; email: string | null }
  userId: string | null
  userEmail: string | null
  details: Record<string, unknown>
}

describe('admin API: server keys and the audit view (pglite)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ env: { SERVER_KEYS: `billing=${SERVER_KEY}` } })
  })
  afterAll(() => tessera.cleanup())

  const signUp = async (email: string) => {
    const browser = browserFor(tessera)
    const response = await browser.post('/sign-up/email', { name: 'Someone', email, password: PASSWORD })
    return { browser, id: (response.json as { user: { id: string } }).user.id }
  }
  const server = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    tessera.api.request(method, path, body, KEY_HEADER)

  it('a server key may act as an admin; its actions are recorded as the server', async () => {
    const { id, browser } = await signUp('carol@example.com')
    const listed = await server('GET', '/admin/list-users?searchValue=carol')
    expect(listed.status).toBe(200)
    expect(listed.json).toMatchObject({ total: 1, users: [{ id }] })
    const promoted = await server('POST', '/admin/set-role', { userId: id, role: 'admin' })
    expect(promoted.json).toMatchObject({ user: { role: 'admin' } })
    const event = (await tessera.store.readStream(userStream(id))).find((e) => e.type === 'user.role-set')
    expect(event?.metadata.actor).toEqual({ type: 'server', name: 'billing' })
    // A wrong key is no admin, and neither is nobody.
    const wrong = await tessera.api.request('GET', '/admin/list-users', undefined, {
      'x-tessera-server-key': 'nope',
    })
    expect(wrong.status).toBeGreaterThanOrEqual(401)
    expect(wrong.status).toBeLessThan(404)
    // Carol is an admin now, through the server API: she may list users herself.
    expect((await browser.get('/admin/list-users')).status).toBe(200)
  })

  it('lists operator actions newest first, by admin and by action; ordinary self-service is not there', async () => {
    const { id: adminId, browser: admin } = await signUp('dora@example.com')
    await server('POST', '/admin/set-role', { userId: adminId, role: 'admin' })
    const { id: userId, browser: user } = await signUp('eve@example.com')
    await user.post('/update-user', { name: 'Eve herself' })
    await admin.post('/admin/ban-user', { userId, banReason: 'Spam' })
    await admin.post('/admin/unban-user', { userId })

    const all = await admin.get('/admin/audit')
    expect(all.status).toBe(200)
    const { actions } = all.json as { actions: Action[]; total: number }
    expect(actions.some((a) => a.action === 'user.profile-updated')).toBe(false)
    const byDora = (await admin.get(`/admin/audit?actor=${adminId}`)).json as {
      actions: Action[]
      total: number
    }
    expect(byDora.actions.map((a) => a.action)).toEqual(['user.unbanned', 'user.banned'])
    // The console shows operators by address: the same actions found that way, in any case.
    const byAddress = (await admin.get('/admin/audit?actor=Dora%40Example.com')).json as { actions: Action[] }
    expect(byAddress.actions).toEqual(byDora.actions)
    // Eve, acted on but no operator, has done nothing here.
    expect((await admin.get('/admin/audit?actor=eve%40example.com')).json).toMatchObject({ total: 0 })
    expect(byDora.actions[1]).toMatchObject({
      userId,
      userEmail: 'eve@example.com',
      actor: { type: 'user', id: adminId, email: 'dora@example.com' },
      details: { reason: 'Spam' },
    })
    const roleChanges = (await admin.get('/admin/audit?action=user.role-set')).json as { actions: Action[] }
    expect(
      roleChanges.actions.every(
        (a) => a.action === 'user.role-set' && a.actor.type === 'server' && a.actor.email === null,
      ),
    ).toBe(true)
    expect(roleChanges.actions.length).toBeGreaterThanOrEqual(2)

    // Erasing Eve keeps the record that she was banned, without what it said about her.
    await admin.post('/admin/remove-user', { userId })
    const after = (await admin.get(`/admin/audit?actor=${adminId}&action=user.banned`)).json as {
      actions: Action[]
    }
    expect(after.actions[0]?.details).toEqual({})
    // Her address goes with her account; the operator's stays.
    expect(after.actions[0]).toMatchObject({ userId, userEmail: null, actor: { email: 'dora@example.com' } })
    // Plain users see none of it.
    const plain = await signUp('frank@example.com')
    expect((await plain.browser.get('/admin/audit')).status).toBe(403)
  })

  it("leaves out the service's bookkeeping: a person deleting their own account is no operator action", async () => {
    const own = await startTessera({
      env: { SERVER_KEYS: `billing=${SERVER_KEY}` },
      features: { user: { deleteUser: { enabled: true, immediate: true } } },
    })
    try {
      const browser = browserFor(own)
      const signedUp = await browser.post('/sign-up/email', {
        name: 'Gina Gone',
        email: 'gina@example.com',
        password: PASSWORD,
      })
      const ginaId = (signedUp.json as { user: { id: string } }).user.id
      expect((await browser.post('/delete-user', {})).status).toBe(200)
      const hank = await browserFor(own).post('/sign-up/email', {
        name: 'Hank Hill',
        email: 'hank@example.com',
        password: PASSWORD,
      })
      const hankId = (hank.json as { user: { id: string } }).user.id
      await own.api.request('POST', '/admin/ban-user', { userId: hankId, banReason: 'spam' }, KEY_HEADER)
      const audit = (await own.api.request('GET', '/admin/audit', undefined, KEY_HEADER)).json as {
        actions: (Action & { userName: string | null })[]
      }
      expect(audit.actions.map((a) => a.action)).toEqual(['user.banned'])
      expect(audit.actions[0]).toMatchObject({ userId: hankId, userName: 'Hank Hill' })
      expect(audit.actions.some((a) => a.userId === ginaId || a.actor.id === ginaId)).toBe(false)
    } finally {
      await own.cleanup()
    }
  })
})
