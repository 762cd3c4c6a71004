/// Organization-owned API keys over HTTP, as better-auth's api-key plugin 1.7 answers them for a
/// configuration that `references` organizations: `organizationId` on create and list, the creator
/// role (owner) manages them, a member whose role lacks the `apiKey` action is refused 403
/// INSUFFICIENT_API_KEY_PERMISSIONS and a non-member 403 USER_NOT_MEMBER_OF_ORGANIZATION. Also how
/// keys end: uses counted in memory are in the log before a deletion, and a key stops verifying the
/// moment its owner (a user, or an organization) is deleted.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyStream } from '../../domain/api-key/api-key.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SERVER_KEY = 'org-backend-server-key-0123456789abcdefgh'
const server = { 'x-tessera-server-key': SERVER_KEY }

let tessera: TestTessera
beforeAll(async () => {
  tessera = await startTessera({
    env: { SERVER_KEYS: `backend=${SERVER_KEY}` },
    features: { user: { deleteUser: { enabled: true, immediate: true } } },
  })
}, 240_000)
afterAll(() => tessera?.cleanup())

type Key = Record<string, unknown> & { id: string; key: string }
type Person = Awaited<ReturnType<typeof signUp>>

const asServer = (path: string, body: object) => tessera.api.request('POST', path, body, server)
const verify = async (key: string) =>
  (await asServer('/api-key/verify', { key })).json as { valid: boolean; error: { code: string } | null }
const eventsOf = (keyId: string) => tessera.store.readStream(apiKeyStream(keyId))

let people = 0
const person = (name: string) => {
  people += 1
  return signUp(tessera, `${name}${people}`)
}

/** An organization of `owner`, with `admin` and `member` added by the backend. */
const organization = async (owner: Person, others: { admin: Person; member: Person }) => {
  const slug = `acme-${people}`
  const created = await owner.post('/organization/create', { name: `Acme ${people}`, slug })
  expect(created.status).toBe(200)
  const { id } = created.json as { id: string }
  for (const [role, who] of Object.entries(others)) {
    const added = await asServer('/organization/add-member', { userId: who.userId, role, organizationId: id })
    expect(added.status).toBe(200)
  }
  return id
}

describe("an organization's keys", () => {
  let owner: Person
  let admin: Person
  let member: Person
  let stranger: Person
  let organizationId: string
  let key: Key

  beforeAll(async () => {
    owner = await person('owner')
    admin = await person('admin')
    member = await person('member')
    stranger = await person('stranger')
    organizationId = await organization(owner, { admin, member })
    const created = await owner.post('/api-key/create', { name: 'deploys', organizationId })
    expect(created.status, JSON.stringify(created.json)).toBe(200)
    key = created.json as Key
  })

  it('belong to the organization: referenceId is its id, and no user owns them', async () => {
    expect(key).toMatchObject({ referenceId: organizationId, userId: null, name: 'deploys', enabled: true })
    const listed = await owner.get(`/api-key/list?organizationId=${organizationId}`)
    expect(listed.json).toMatchObject({ total: 1, apiKeys: [{ id: key.id, referenceId: organizationId }] })
    expect(listed.body).not.toContain(key.key)
    // Not among the creator's own keys.
    expect((await owner.get('/api-key/list')).json).toMatchObject({ total: 0 })
    expect((await owner.get(`/api-key/get?id=${key.id}`)).json).toMatchObject({ id: key.id })
    const [created] = await eventsOf(key.id)
    expect(created?.data).toMatchObject({
      keyId: key.id,
      userId: null,
      organizationId,
      byUserId: owner.userId,
    })
    expect(created?.metadata.actor).toEqual({ type: 'user', userId: owner.userId })
  })

  it('verify for a backend, naming the organization as the reference', async () => {
    const answer = (await asServer('/api-key/verify', { key: key.key })).json
    expect(answer).toMatchObject({
      valid: true,
      error: null,
      key: { id: key.id, referenceId: organizationId },
    })
  })

  it('are refused to members whose role lacks the apiKey action (the built-in admin and member)', async () => {
    for (const who of [admin, member]) {
      const refusal = 'INSUFFICIENT_API_KEY_PERMISSIONS'
      const message = 'You do not have permission to perform this action on organization API keys.'
      expectRefusal(await who.post('/api-key/create', { organizationId }), 403, refusal, message)
      expectRefusal(await who.get(`/api-key/list?organizationId=${organizationId}`), 403, refusal)
      expectRefusal(await who.get(`/api-key/get?id=${key.id}`), 403, refusal)
      expectRefusal(await who.post('/api-key/update', { keyId: key.id, name: 'x' }), 403, refusal)
      expectRefusal(await who.post('/api-key/delete', { keyId: key.id }), 403, refusal)
    }
  })

  it('are refused to people outside the organization, and the key stays untouched', async () => {
    const refusal = 'USER_NOT_MEMBER_OF_ORGANIZATION'
    const message = 'You are not a member of the organization that owns this API key.'
    expectRefusal(await stranger.post('/api-key/create', { organizationId }), 403, refusal, message)
    expectRefusal(await stranger.get(`/api-key/list?organizationId=${organizationId}`), 403, refusal)
    expectRefusal(await stranger.get(`/api-key/get?id=${key.id}`), 403, refusal)
    expectRefusal(await stranger.post('/api-key/delete', { keyId: key.id }), 403, refusal)
    // A backend acting for a non-member is refused alike.
    expectRefusal(
      await asServer('/api-key/create', { userId: stranger.userId, organizationId }),
      403,
      refusal,
    )
    expect((await eventsOf(key.id)).map((event) => event.type)).toEqual(['api-key.created'])
  })

  it('are changed and disabled by the owner, each an event naming who acted', async () => {
    const updated = await owner.post('/api-key/update', { keyId: key.id, name: 'releases', enabled: false })
    expect(updated).toMatchObject({ status: 200, json: { name: 'releases', enabled: false } })
    expect(await verify(key.key)).toMatchObject({ valid: false, error: { code: 'KEY_DISABLED' } })
    const disabled = (await eventsOf(key.id)).find((event) => event.type === 'api-key.disabled')
    expect(disabled?.data).toMatchObject({ organizationId, byUserId: owner.userId })
    await owner.post('/api-key/update', { keyId: key.id, enabled: true })
    expect((await verify(key.key)).valid).toBe(true)
  })

  it('stop verifying when the organization is deleted', async () => {
    const other = await owner.post('/api-key/create', { organizationId })
    const otherKey = other.json as Key
    expect((await owner.post('/organization/delete', { organizationId })).status).toBe(200)
    expect(await verify(otherKey.key)).toMatchObject({ valid: false, error: { code: 'INVALID_API_KEY' } })
    expect(await verify(key.key)).toMatchObject({ valid: false, error: { code: 'INVALID_API_KEY' } })
  })
})

describe('the end of a key', () => {
  it('records the uses not yet in the log before the deletion', async () => {
    const ada = await person('ada')
    // Without usage or rate limit, uses are counted in memory and written in batches.
    const created = await asServer('/api-key/create', { userId: ada.userId, rateLimitEnabled: false })
    const key = created.json as Key
    for (let use = 0; use < 3; use++) expect((await verify(key.key)).valid).toBe(true)
    expect((await ada.post('/api-key/delete', { keyId: key.id })).status).toBe(200)
    const events = await eventsOf(key.id)
    expect(events.map((event) => event.type)).toEqual(['api-key.created', 'api-key.used', 'api-key.deleted'])
    expect(events[1]?.data).toMatchObject({ keyId: key.id, count: 3 })
    expect(await verify(key.key)).toMatchObject({ valid: false, error: { code: 'INVALID_API_KEY' } })
  })

  it("stops verifying the moment its owner's account is deleted, and is gone from the read model", async () => {
    const bea = await person('bea')
    const created = await asServer('/api-key/create', { userId: bea.userId, rateLimitEnabled: false })
    const key = created.json as Key
    expect((await verify(key.key)).valid).toBe(true)
    expect((await bea.post('/delete-user', {})).json).toMatchObject({ success: true })
    expect(await verify(key.key)).toMatchObject({ valid: false, error: { code: 'INVALID_API_KEY' } })
    const rows = await tessera.ctx.db.selectFrom('api_keys').select('id').where('id', '=', key.id).execute()
    expect(rows).toEqual([])
  })
})
