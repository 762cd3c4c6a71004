/// API keys over HTTP (better-auth's api-key plugin 1.7 on the wire): a signed-in user manages their
/// keys; a backend verifies them and sets the server-only properties over the server API. One
/// Tessera on PostgreSQL for the file (the concurrency rule needs real concurrent transactions), with
/// a clock the tests move forward for expiry, refill and the hourly usage summary.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyStream } from '../../domain/api-key/api-key.js'
import { findUsage } from '../../projections/api-keys/api-keys.repository.js'
import { browserFor, devicesFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SERVER_KEY = 'backend-server-key-0123456789abcdefghijkl'
const server = { 'x-tessera-server-key': SERVER_KEY }
const DAY = 86_400

let tessera: TestTessera
let offsetMs = 0
const advance = (ms: number) => {
  offsetMs += ms
}

beforeAll(async () => {
  tessera = await startTessera({
    kind: 'postgres',
    env: { SERVER_KEYS: `backend=${SERVER_KEY}` },
    clock: () => new Date(Date.now() + offsetMs),
  })
}, 240_000)
afterAll(() => tessera?.cleanup())

type Key = Record<string, unknown> & { id: string; key?: string }
type Verify = {
  valid: boolean
  error: { code: string; message: string; details?: { tryAgainIn: number } } | null
  key: Key | null
}

let users = 0
const signedUp = async () => {
  users += 1
  const device = await devicesFor(() => tessera, 'a good password').signedUp(`user${users}@example.com`)
  const userId = (await device.session())?.user.id as string
  return { ...device, userId }
}
const create = async (
  device: { post: (path: string, body?: unknown) => Promise<{ status: number; json: unknown }> },
  body: object = {},
) => {
  const answer = await device.post('/api-key/create', body)
  expect(answer.status).toBe(200)
  return answer.json as Key & { key: string }
}
const asServer = (path: string, body: object) => tessera.api.request('POST', path, body, server)
const serverCreate = async (body: object) => {
  const answer = await asServer('/api-key/create', body)
  expect(answer.status, JSON.stringify(answer.json)).toBe(200)
  return answer.json as Key & { key: string }
}
const verify = async (key: string, extra: object = {}) =>
  (await asServer('/api-key/verify', { key, ...extra })).json as Verify
const eventsOf = async (keyId: string) => tessera.store.readStream(apiKeyStream(keyId))

describe('creating a key as a signed-in user', () => {
  it('answers the whole key once, with its start, prefix and the default per-key limit (10 a day)', async () => {
    const ada = await signedUp()
    const created = await create(ada, { name: 'ci', prefix: 'tes_', expiresIn: 30 * DAY })
    expect(created.key).toMatch(/^tes_[a-zA-Z]{64}$/)
    expect(created).toMatchObject({
      name: 'ci',
      prefix: 'tes_',
      start: created.key.slice(0, 6),
      referenceId: ada.userId,
      userId: ada.userId,
      enabled: true,
      remaining: null,
      rateLimitEnabled: true,
      rateLimitTimeWindow: 86_400_000,
      rateLimitMax: 10,
      requestCount: 0,
      permissions: null,
      metadata: null,
    })
    expect(Date.parse(created.expiresAt as string) - Date.parse(created.createdAt as string)).toBe(
      30 * DAY * 1000,
    )
    // Afterwards: never the key, never its hash.
    const got = await ada.get(`/api-key/get?id=${created.id}`)
    const listed = await ada.get('/api-key/list')
    expect(got.status).toBe(200)
    expect((listed.json as { apiKeys: Key[]; total: number }).total).toBe(1)
    for (const body of [got.body, listed.body]) {
      expect(body).not.toContain(created.key)
      expect(body).not.toMatch(/keyHash|key_hash|"key"/)
    }
    // Tessera's: the last four characters too, so keys of one prefix can be told apart in a list.
    expect(created.lastFour).toBe(created.key.slice(-4))
    expect((listed.json as { apiKeys: Key[] }).apiKeys[0]?.lastFour).toBe(created.key.slice(-4))
    const [event] = await eventsOf(created.id)
    expect(event?.type).toBe('api-key.created')
    expect(JSON.stringify(event?.data)).not.toContain(created.key)
    expect(event?.metadata.actor).toEqual({ type: 'user', userId: ada.userId })
  })

  it.each([
    [
      { expiresIn: DAY - 1 },
      'EXPIRES_IN_IS_TOO_SMALL',
      'The expiresIn is smaller than the predefined minimum value.',
    ],
    [
      { expiresIn: 366 * DAY },
      'EXPIRES_IN_IS_TOO_LARGE',
      'The expiresIn is larger than the predefined maximum value.',
    ],
    [{ name: 'n'.repeat(33) }, 'INVALID_NAME_LENGTH', 'The name length is either too large or too small.'],
    [
      { prefix: 'p'.repeat(33) },
      'INVALID_PREFIX_LENGTH',
      'The prefix length is either too large or too small.',
    ],
    [{ metadata: { team: 'a' } }, 'METADATA_DISABLED', 'Metadata is disabled.'],
    [
      { remaining: 5 },
      'SERVER_ONLY_PROPERTY',
      "The property you're trying to set can only be set from the server auth instance only.",
    ],
    [{ permissions: { files: ['read'] } }, 'SERVER_ONLY_PROPERTY', undefined],
    [{ rateLimitMax: 100 }, 'SERVER_ONLY_PROPERTY', undefined],
    [{ refillAmount: 5, refillInterval: 1000 }, 'SERVER_ONLY_PROPERTY', undefined],
    [{ prefix: 'bad prefix!' }, 'VALIDATION_ERROR', undefined],
  ])('refuses %j with %s', async (body, code, message) => {
    const device = await signedUp()
    const answer = await device.post('/api-key/create', body)
    expect(answer.status).toBe(400)
    expect(answer.json).toMatchObject({ code, ...(message ? { message } : {}) })
    expect(((await device.get('/api-key/list')).json as { total: number }).total).toBe(0)
  })

  it('refuses a caller without a session, and a user naming any user, even themselves (401 UNAUTHORIZED_SESSION)', async () => {
    const anonymous = await browserFor(tessera).post('/api-key/create', {})
    expect(anonymous).toMatchObject({
      status: 401,
      json: { code: 'UNAUTHORIZED_SESSION', message: 'Unauthorized or invalid session' },
    })
    const ada = await signedUp()
    const naming = await ada.post('/api-key/create', { userId: 'someone-else' })
    expect(naming).toMatchObject({ status: 401, json: { code: 'UNAUTHORIZED_SESSION' } })
    const self = await ada.post('/api-key/create', { userId: ada.userId })
    expect(self).toMatchObject({ status: 401, json: { code: 'UNAUTHORIZED_SESSION' } })
    expect(((await ada.get('/api-key/list')).json as { total: number }).total).toBe(0)
  })
})

describe("another user's key", () => {
  it('answers 404 API Key not found to get, update and delete, and stays untouched', async () => {
    const owner = await signedUp()
    const stranger = await signedUp()
    const key = await create(owner, { name: 'mine' })
    const notFound = { status: 404, json: { code: 'KEY_NOT_FOUND', message: 'API Key not found' } }
    expect(await stranger.get(`/api-key/get?id=${key.id}`)).toMatchObject(notFound)
    expect(await stranger.get('/api-key/get?id=no-such-key')).toMatchObject(notFound)
    expect(await stranger.post('/api-key/update', { keyId: key.id, name: 'theirs' })).toMatchObject(notFound)
    expect(await stranger.post('/api-key/delete', { keyId: key.id })).toMatchObject(notFound)
    expect(((await stranger.get('/api-key/list')).json as { total: number }).total).toBe(0)
    expect((await owner.get(`/api-key/get?id=${key.id}`)).json).toMatchObject({ name: 'mine', enabled: true })
    expect((await eventsOf(key.id)).map((event) => event.type)).toEqual(['api-key.created'])
  })
})

describe('updating and deleting', () => {
  it('renames, disables and enables a key, each an event; an empty update is refused', async () => {
    const ada = await signedUp()
    const key = await create(ada)
    expect(await ada.post('/api-key/update', { keyId: key.id })).toMatchObject({
      status: 400,
      json: { code: 'NO_VALUES_TO_UPDATE', message: 'No values to update.' },
    })
    expect(await ada.post('/api-key/update', { keyId: key.id, remaining: 3 })).toMatchObject({
      status: 400,
      json: { code: 'SERVER_ONLY_PROPERTY' },
    })
    const renamed = await ada.post('/api-key/update', { keyId: key.id, name: 'renamed', enabled: false })
    expect(renamed).toMatchObject({ status: 200, json: { name: 'renamed', enabled: false } })
    expect(await verify(key.key)).toEqual({
      valid: false,
      error: { code: 'KEY_DISABLED', message: 'API Key is disabled' },
      key: null,
    })
    await ada.post('/api-key/update', { keyId: key.id, enabled: true })
    expect((await verify(key.key)).valid).toBe(true)
    expect((await eventsOf(key.id)).map((event) => event.type)).toEqual([
      'api-key.created',
      'api-key.updated',
      'api-key.disabled',
      'api-key.enabled',
    ])
  })

  it('deletes a key: gone from the list, and no longer valid', async () => {
    const ada = await signedUp()
    const key = await create(ada)
    expect(await ada.post('/api-key/delete', { keyId: key.id })).toMatchObject({
      status: 200,
      json: { success: true },
    })
    expect((await ada.get(`/api-key/get?id=${key.id}`)).status).toBe(404)
    expect((await verify(key.key)).error?.code).toBe('INVALID_API_KEY')
    expect((await eventsOf(key.id)).at(-1)?.data).toMatchObject({ reason: 'deleted' })
  })

  it('shows the key in its owner’s activity', async () => {
    const ada = await signedUp()
    const key = await create(ada, { name: 'feed' })
    const { items } = (await ada.get('/activity')).json as {
      items: { type: string; details: Record<string, unknown> }[]
    }
    expect(items.find((item) => item.type === 'api-key.created')?.details).toMatchObject({
      keyId: key.id,
      name: 'feed',
    })
  })
})

describe('over the server API', () => {
  it('creates a key for a user with server-only properties, recorded as server:backend', async () => {
    const ada = await signedUp()
    const key = await serverCreate({
      userId: ada.userId,
      remaining: 3,
      permissions: { files: ['read', 'write'] },
      rateLimitEnabled: false,
    })
    expect(key).toMatchObject({
      userId: ada.userId,
      remaining: 3,
      rateLimitEnabled: false,
      permissions: { files: ['read', 'write'] },
    })
    expect((await eventsOf(key.id))[0]?.metadata.actor).toEqual({ type: 'server', name: 'backend' })
    const updated = await asServer('/api-key/update', {
      keyId: key.id,
      userId: ada.userId,
      remaining: 7,
      rateLimitMax: 5,
    })
    expect(updated).toMatchObject({ status: 200, json: { remaining: 7, rateLimitMax: 5 } })
  })

  it('refuses a refill amount without its interval, a key for nobody, and an unknown user', async () => {
    const ada = await signedUp()
    expect(await asServer('/api-key/create', { userId: ada.userId, refillAmount: 5 })).toMatchObject({
      status: 400,
      json: {
        code: 'REFILL_AMOUNT_AND_INTERVAL_REQUIRED',
        message: 'refillAmount is required when refillInterval is provided',
      },
    })
    expect(await asServer('/api-key/create', { userId: ada.userId, refillInterval: 5000 })).toMatchObject({
      status: 400,
      json: { code: 'REFILL_INTERVAL_AND_AMOUNT_REQUIRED' },
    })
    expect(await asServer('/api-key/create', {})).toMatchObject({
      status: 401,
      json: { code: 'UNAUTHORIZED_SESSION' },
    })
    expect(await asServer('/api-key/create', { userId: 'nobody' })).toMatchObject({
      status: 404,
      json: { code: 'USER_NOT_FOUND' },
    })
  })

  it('keeps verify from browsers: a signed-in user gets 403', async () => {
    const ada = await signedUp()
    const key = await create(ada)
    expect(await ada.post('/api-key/verify', { key: key.key })).toMatchObject({
      status: 403,
      json: { code: 'SERVER_ONLY_OPERATION' },
    })
  })
})

describe('verifying', () => {
  it('answers an unknown or malformed key as invalid', async () => {
    for (const key of ['', 'nonsense', `tes_${'a'.repeat(64)}`])
      expect(await verify(key)).toEqual({
        valid: false,
        error: { code: 'INVALID_API_KEY', message: 'Invalid API key.' },
        key: null,
      })
  })

  it('checks required permissions against the key’s', async () => {
    const ada = await signedUp()
    const key = await serverCreate({
      userId: ada.userId,
      permissions: { files: ['read'] },
      rateLimitEnabled: false,
    })
    expect((await verify(key.key, { permissions: { files: ['read'] } })).valid).toBe(true)
    expect(await verify(key.key, { permissions: { files: ['write'] } })).toMatchObject({
      valid: false,
      error: { code: 'KEY_NOT_FOUND', message: 'API Key not found' },
    })
    const bare = await create(ada)
    expect((await verify(bare.key, { permissions: { files: ['read'] } })).valid).toBe(false)
    // Asking for no action, or for nothing, grants nothing (better-auth's role().authorize).
    for (const permissions of [{ files: [] }, {}])
      expect(await verify(key.key, { permissions }), JSON.stringify(permissions)).toMatchObject({
        valid: false,
        error: { code: 'KEY_NOT_FOUND' },
      })
  })

  it('takes one from remaining per valid answer; at zero the key is refused and deleted', async () => {
    const ada = await signedUp()
    const key = await serverCreate({ userId: ada.userId, remaining: 2, rateLimitEnabled: false })
    expect((await verify(key.key)).key?.remaining).toBe(1)
    expect((await verify(key.key)).key?.remaining).toBe(0)
    expect(await verify(key.key)).toMatchObject({
      valid: false,
      error: { code: 'USAGE_EXCEEDED', message: 'API Key has reached its usage limit' },
    })
    expect((await ada.get(`/api-key/get?id=${key.id}`)).status).toBe(404)
    expect((await eventsOf(key.id)).at(-1)?.data).toMatchObject({ reason: 'usage-exhausted' })
  })

  it('limits a user’s key to 10 verifications a day, answering the time to retry', async () => {
    const ada = await signedUp()
    const key = await create(ada)
    for (let use = 1; use <= 10; use++) expect((await verify(key.key)).key?.requestCount).toBe(use)
    const limited = await verify(key.key)
    expect(limited).toMatchObject({
      valid: false,
      error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded.' },
    })
    expect(limited.error?.details?.tryAgainIn).toBeGreaterThan(86_000_000)
  })

  it('gives exactly 10 valid answers to 100 concurrent verifications of a key with 10 remaining', async () => {
    const ada = await signedUp()
    const key = await serverCreate({ userId: ada.userId, remaining: 10, rateLimitEnabled: false })
    const answers = await Promise.all(Array.from({ length: 100 }, () => verify(key.key)))
    expect(answers.filter((answer) => answer.valid)).toHaveLength(10)
    const remainings = answers.flatMap((answer) => (answer.valid ? [answer.key?.remaining] : []))
    expect(remainings.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })
})

describe('with the clock moving', () => {
  it('refuses an expired key and deletes it (an api-key.expired event)', async () => {
    const ada = await signedUp()
    const key = await create(ada, { expiresIn: DAY })
    expect((await verify(key.key)).valid).toBe(true)
    advance(DAY * 1000 + 1000)
    expect(await verify(key.key)).toMatchObject({
      valid: false,
      error: { code: 'KEY_EXPIRED', message: 'API Key has expired' },
    })
    expect((await ada.get(`/api-key/get?id=${key.id}`)).status).toBe(404)
    expect((await eventsOf(key.id)).map((event) => event.type)).toContain('api-key.expired')
  })

  it('leaves a key with a refill but no remaining unlimited, as better-auth (remaining null)', async () => {
    const ada = await signedUp()
    const key = await serverCreate({
      userId: ada.userId,
      refillAmount: 2,
      refillInterval: 60_000,
      rateLimitEnabled: false,
    })
    expect(key).toMatchObject({ remaining: null, refillAmount: 2, refillInterval: 60_000 })
    for (let use = 1; use <= 4; use++) expect((await verify(key.key)).valid, `use ${use}`).toBe(true)
  })

  it('refills remaining by refillAmount once refillInterval has passed', async () => {
    const ada = await signedUp()
    const key = await serverCreate({
      userId: ada.userId,
      remaining: 2,
      refillAmount: 2,
      refillInterval: 60_000,
      rateLimitEnabled: false,
    })
    expect(key.remaining).toBe(2)
    expect((await verify(key.key)).valid).toBe(true)
    expect((await verify(key.key)).valid).toBe(true)
    expect(await verify(key.key)).toMatchObject({ valid: false, error: { code: 'USAGE_EXCEEDED' } })
    // With a refill, an empty key is kept: it refills.
    expect((await ada.get(`/api-key/get?id=${key.id}`)).status).toBe(200)
    advance(61_000)
    const refilled = await verify(key.key)
    expect(refilled).toMatchObject({ valid: true, key: { remaining: 1 } })
    expect(refilled.key?.lastRefillAt).not.toBeNull()
  })

  it('records uses in the log as one summary an hour, not an event per verification', async () => {
    const ada = await signedUp()
    const key = await serverCreate({ userId: ada.userId, rateLimitEnabled: false })
    for (let use = 0; use < 5; use++) await verify(key.key)
    // A key without usage or rate limit is counted in memory and written once a second.
    await tessera.ctx.apiKeyUses.flush()
    expect((await eventsOf(key.id)).map((event) => event.type)).toEqual(['api-key.created'])
    advance(60 * 60 * 1000)
    await verify(key.key)
    await tessera.ctx.apiKeyUses.flush()
    const used = (await eventsOf(key.id)).filter((event) => event.type === 'api-key.used')
    expect(used).toHaveLength(1)
    expect(used[0]?.data).toMatchObject({ keyId: key.id, count: 6 })
  })

  it("records uses another instance still held when a key went, once the sweep removes the key's counters", async () => {
    const ada = await signedUp()
    const key = await serverCreate({ userId: ada.userId, rateLimitEnabled: false })
    expect((await verify(key.key)).valid).toBe(true)
    expect((await ada.post('/api-key/delete', { keyId: key.id })).status).toBe(200)
    // Another instance answered two verifications just before it learnt of the deletion.
    tessera.ctx.apiKeyUses.count(key.id, tessera.ctx.clock())
    tessera.ctx.apiKeyUses.count(key.id, tessera.ctx.clock())
    await tessera.ctx.apiKeyUses.flush()
    const usageRow = () => findUsage(tessera.ctx.db, key.id)
    expect(await usageRow()).toMatchObject({ revoked_at: expect.any(Date), unrecorded_uses: 2 })
    await tessera.ctx.apiKeyUses.sweep()
    expect(await usageRow()).not.toBeNull()
    advance(3 * 60 * 1000)
    await tessera.ctx.apiKeyUses.sweep()
    expect(await usageRow()).toBeNull()
    const events = await eventsOf(key.id)
    expect(events.map((event) => event.type)).toEqual([
      'api-key.created',
      'api-key.used',
      'api-key.deleted',
      'api-key.used',
    ])
    expect(events.map((event) => (event.data as { count?: number }).count)).toEqual([
      undefined,
      1,
      undefined,
      2,
    ])
  })
})
