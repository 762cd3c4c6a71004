/// Compatibility: better-auth 1.7.5's client with `apiKeyClient` (@better-auth/api-key 1.7.5) drives
/// a Tessera on loopback: create (the key once), get, list, update, delete, and the plugin's error
/// codes; a backend then verifies the key over the server API with plain fetch. With
/// `organizationClient` too: an organization's keys (`organizationId` on create and list).

import { apiKeyClient } from '@better-auth/api-key/client'
import { createAuthClient } from 'better-auth/client'
import { organizationClient } from 'better-auth/client/plugins'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { browserCookies } from './browser-cookies.js'

const SERVER_KEY = 'compat-backend-key-0123456789abcdefghijkl'

type Answer<T> = Promise<{
  data: T | null
  error: { status: number; code?: string; message?: string } | null
}>
type Key = {
  id: string
  name: string | null
  start: string | null
  prefix: string | null
  referenceId: string
  userId: string | null
  key?: string
}
/** The client's API-key calls; the client plugin infers none without the server plugin's types. */
type ApiKeyCalls = {
  create(body: {
    name?: string
    expiresIn?: number
    prefix?: string
    remaining?: number
    organizationId?: string
  }): Answer<Key & { key: string }>
  get(options: { query: { id: string } }): Answer<Key>
  list(options?: { query: { organizationId?: string } }): Answer<{ apiKeys: Key[]; total: number }>
  update(body: { keyId: string; name?: string; enabled?: boolean }): Answer<Key & { enabled: boolean }>
  delete(body: { keyId: string }): Answer<{ success: boolean }>
}

describe('better-auth 1.7.5 apiKeyClient against Tessera (pglite, loopback)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ listen: true, env: { SERVER_KEYS: `backend=${SERVER_KEY}` } })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  const device = () => {
    const { jar, fetchOptions } = browserCookies(tessera)
    const client = createAuthClient({
      baseURL: tessera.baseUrl,
      plugins: [apiKeyClient(), organizationClient()],
      fetchOptions,
    })
    return { jar, client, apiKey: (client as unknown as { apiKey: ApiKeyCalls }).apiKey }
  }

  it('manages a key through the client, and a backend verifies it', async () => {
    const laptop = device()
    const signUp = await laptop.client.signUp.email({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'a good password',
    })
    expect(signUp.error).toBeNull()

    const created = await laptop.apiKey.create({ name: 'deploy', prefix: 'ada_', expiresIn: 7 * 86_400 })
    expect(created.error).toBeNull()
    const key = created.data?.key as string
    expect(key).toMatch(/^ada_[a-zA-Z]{64}$/)
    expect(created.data).toMatchObject({ name: 'deploy', prefix: 'ada_', start: key.slice(0, 6) })
    const id = created.data?.id as string

    const got = await laptop.apiKey.get({ query: { id } })
    expect(got.data).toMatchObject({ id, name: 'deploy' })
    expect(got.data).not.toHaveProperty('key')
    const listed = await laptop.apiKey.list()
    expect(listed.data?.total).toBe(1)
    expect(listed.data?.apiKeys.map((listedKey) => listedKey.id)).toEqual([id])

    const renamed = await laptop.apiKey.update({ keyId: id, name: 'deploy-2' })
    expect(renamed.data).toMatchObject({ name: 'deploy-2', enabled: true })

    const verified = await fetch(`${tessera.baseUrl}/api/auth/api-key/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tessera-server-key': SERVER_KEY },
      body: JSON.stringify({ key }),
    })
    expect(verified.status).toBe(200)
    expect(await verified.json()).toMatchObject({ valid: true, error: null, key: { id, name: 'deploy-2' } })

    const deleted = await laptop.apiKey.delete({ keyId: id })
    expect(deleted.data).toEqual({ success: true })
    expect((await laptop.apiKey.get({ query: { id } })).error).toMatchObject({
      status: 404,
      code: 'KEY_NOT_FOUND',
    })
  })

  it("answers the plugin's error codes: server-only property, expiry bounds, someone else's key", async () => {
    const owner = device()
    await owner.client.signUp.email({
      name: 'Owner',
      email: 'owner@example.com',
      password: 'a good password',
    })
    const serverOnly = await owner.apiKey.create({ remaining: 5 })
    expect(serverOnly.error).toMatchObject({ status: 400, code: 'SERVER_ONLY_PROPERTY' })
    const tooShort = await owner.apiKey.create({ expiresIn: 60 })
    expect(tooShort.error).toMatchObject({
      status: 400,
      code: 'EXPIRES_IN_IS_TOO_SMALL',
      message: 'The expiresIn is smaller than the predefined minimum value.',
    })
    const mine = await owner.apiKey.create({ name: 'mine' })

    const stranger = device()
    await stranger.client.signUp.email({ name: 'Eve', email: 'eve@example.com', password: 'a good password' })
    const theirs = await stranger.apiKey.update({ keyId: mine.data?.id as string, name: 'stolen' })
    expect(theirs.error).toMatchObject({ status: 404, code: 'KEY_NOT_FOUND', message: 'API Key not found' })
  })

  it("manages an organization's keys: its owner creates and lists them, others are refused", async () => {
    const owner = device()
    await owner.client.signUp.email({
      name: 'Grace',
      email: 'grace@example.com',
      password: 'a good password',
    })
    const organization = await owner.client.organization.create({ name: 'Hopper', slug: 'hopper' })
    const organizationId = organization.data?.id as string
    expect(organizationId).toBeTruthy()

    const created = await owner.apiKey.create({ name: 'ci', organizationId })
    expect(created.error).toBeNull()
    expect(created.data).toMatchObject({ name: 'ci', referenceId: organizationId, userId: null })
    const listed = await owner.apiKey.list({ query: { organizationId } })
    expect(listed.data?.apiKeys.map((listedKey) => listedKey.id)).toEqual([created.data?.id])
    expect((await owner.apiKey.list()).data?.total).toBe(0)

    const outsider = device()
    await outsider.client.signUp.email({
      name: 'Eve',
      email: 'eve2@example.com',
      password: 'a good password',
    })
    expect((await outsider.apiKey.list({ query: { organizationId } })).error).toMatchObject({
      status: 403,
      code: 'USER_NOT_MEMBER_OF_ORGANIZATION',
    })
    expect((await outsider.apiKey.delete({ keyId: created.data?.id as string })).error).toMatchObject({
      status: 403,
      code: 'USER_NOT_MEMBER_OF_ORGANIZATION',
    })
    const deleted = await owner.apiKey.delete({ keyId: created.data?.id as string })
    expect(deleted.data).toEqual({ success: true })
  })
})
