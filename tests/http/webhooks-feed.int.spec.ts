/// The event feed, black box: GET /events in log order with an opaque cursor; paging with the
/// cursor sees every event once; the long poll answers as soon as an event commits; who may read.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { databaseKinds } from '../support/databases.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SERVER_KEY = 'feed-test-server-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }

type Page = {
  events: {
    id: string
    type: string
    occurredAt: string
    subject: string | null
    data: Record<string, unknown>
  }[]
  cursor: string
}

// On both databases: PostgreSQL (production, several processes) and embedded PGlite.
for (const kind of databaseKinds)
  describe(`the event feed (${kind})`, { timeout: 120_000 }, () => {
    let tessera: TestTessera
    beforeEach(async () => {
      tessera = await startTessera({
        kind,
        env: { SERVER_KEYS: `app=${SERVER_KEY}` },
      })
    })
    afterEach(() => tessera.cleanup())

    const read = async (query: string): Promise<Page> => {
      const response = await tessera.api.request('GET', `/events${query}`, undefined, server)
      expect(response.status, response.body).toBe(200)
      return response.json as Page
    }

    it('pages through the log in order with the cursor, each event once', async () => {
      for (const name of ['ann', 'ben', 'cat']) await signUp(tessera, name)
      const all = await read('?limit=100')
      expect(all.events.map((event) => event.type)).toEqual([
        'user.created',
        'session.created',
        'user.created',
        'session.created',
        'user.created',
        'session.created',
      ])
      expect(all.events[0]?.data).toMatchObject({ email: 'ann@example.com', name: 'ann' })
      const paged: string[] = []
      let cursor = ''
      for (let page = 0; page < 10; page += 1) {
        const next = await read(`?limit=2&after=${cursor}`)
        paged.push(...next.events.map((event) => event.id))
        cursor = next.cursor
        if (next.events.length === 0) break
      }
      expect(paged).toEqual(all.events.map((event) => event.id))
      // Nothing after the end, and the cursor stays put.
      expect(await read(`?after=${all.cursor}`)).toEqual({ events: [], cursor: all.cursor })
      const sessions = await read('?types=session.created')
      expect(sessions.events.map((event) => event.type)).toEqual([
        'session.created',
        'session.created',
        'session.created',
      ])
    })

    it('wakes a long poll as soon as an event commits', async () => {
      const { cursor } = await read('')
      const started = Date.now()
      const polling = read(`?wait=20&after=${cursor}`)
      await new Promise((resolve) => setTimeout(resolve, 300))
      await signUp(tessera, 'dan')
      const page = await polling
      expect(page.events[0]?.type).toBe('user.created')
      expect(Date.now() - started).toBeLessThan(15_000)
    })

    it('refuses a wait past 30 s, a bad cursor, an unknown type, and anyone but the server or an organization’s admins', async () => {
      expectRefusal(
        await tessera.api.request('GET', '/events?wait=31', undefined, server),
        400,
        'VALIDATION_ERROR',
      )
      expectRefusal(
        await tessera.api.request('GET', '/events?after=zz!', undefined, server),
        400,
        'INVALID_CURSOR',
      )
      expectRefusal(
        await tessera.api.request('GET', '/events?types=user.registered', undefined, server),
        400,
        'UNKNOWN_EVENT_TYPE',
      )
      expectRefusal(await tessera.api.request('GET', '/events'), 401, 'UNAUTHORIZED')
      const owner = await signUp(tessera, 'eve')
      expectRefusal(await owner.get('/events'), 403, 'YOU_ARE_NOT_ALLOWED_TO_READ_EVENTS')
      const org = (await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })).json as {
        id: string
      }
      await signUp(tessera, 'fay')
      const own = await owner.get(`/events?organizationId=${org.id}`)
      expect(own.status).toBe(200)
      const events = (own.json as Page).events
      // Its own events only (the default team's too); never another user's sign-up.
      expect(events.map((event) => event.type).slice(0, 2)).toEqual([
        'organization.created',
        'member.created',
      ])
      expect(events.some((event) => event.type === 'user.created')).toBe(false)
      for (const event of events) expect(event.data.organizationId).toBe(org.id)
    })
  })
