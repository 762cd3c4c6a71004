/// The event feed after erasure, black box: the person's events read back with ids and types and
/// none of their personal data (the log's crypto-shredding), while another person's keep theirs.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SERVER_KEY = 'feed-erasure-server-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }
type Page = { events: { type: string; data: Record<string, unknown> }[] }

describe('the event feed after erasure', { timeout: 180_000 }, () => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera({
      env: { SERVER_KEYS: `app=${SERVER_KEY}` },
      features: { user: { deleteUser: { immediate: true } } },
    })
  })
  afterEach(() => tessera.cleanup())

  it('carries ids and types only for the erased person, and their data for the other', async () => {
    const eve = await signUp(tessera, 'eve')
    const ida = await signUp(tessera, 'ida')
    expect((await eve.post('/delete-user', {})).status).toBe(200)
    const response = await tessera.api.request('GET', '/events?limit=100', undefined, server)
    expect(response.status, response.body).toBe(200)
    const { events } = response.json as Page
    const created = events.filter((event) => event.type === 'user.created')
    expect(created.map((event) => event.data.userId)).toEqual([eve.userId, ida.userId])
    expect(created[0]?.data).toEqual({ userId: eve.userId, emailVerified: false })
    expect(created[1]?.data).toMatchObject({ email: 'ida@example.com', name: 'ida' })
    expect(events.some((event) => event.type === 'user.deleted')).toBe(true)
    expect(response.body).not.toContain('eve@example.com')
    expect(response.body).not.toMatch(/"name":"eve"/)
  })
})
