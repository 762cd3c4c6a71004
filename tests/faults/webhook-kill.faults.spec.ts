/// Fault 5: the process that delivers webhooks (`tessera serve --role projector`, the compiled CLI,
/// in a child) killed with SIGKILL at random moments while 1,000 events are made and delivered to a
/// real receiver on loopback, and started again each time. Afterwards every endpoint has received
/// every event it subscribed to at least once, signed (checked with the `standardwebhooks`
/// package), and in log order: a delivery never jumps past an event not yet delivered (a crash may
/// repeat the last ones, with the same webhook-id, never skip one).
///
/// The events are commands on an API instance in this process (renames, and sign-ins for the
/// second endpoint); what each endpoint should have received is read back from the feed
/// (`GET /events`) once the load is over. The moments are random (the seed is printed, FAULT_SEED
/// repeats a run; FAULT_KILLS and FAULT_EVENTS make a run smaller).

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTesseraDatabase } from '../../app/database.js'
import { createTessera } from '../../app/server/tessera.js'
import { loadConfig } from '../../infra/config/config.js'
import { type Browser, browserFor } from '../support/browser.js'
import { freshPostgres, type PostgresDatabase } from '../support/databases.js'
import { type TestTessera, testClient } from '../support/tessera.js'
import { type Received, type Receiver, startReceiver } from '../support/webhook-receiver.js'
import { printFigures, projectorProcess, randomFrom, seconds, sleep, tally, waitUntil } from './support.js'

const KILLS = Number(process.env.FAULT_KILLS ?? 8)
const EVENTS = Number(process.env.FAULT_EVENTS ?? 1000)
const WORKERS = 4
const SECRET = 'webhook-kill-secret-0123456789abcdefghijkl'
const SERVER_KEY = 'webhook-kill-server-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }
const PASSWORD = 'correct horse battery'

type Endpoint = { id: string; secret: string; receiver: Receiver; types: string[] }

/**
 * Checks one endpoint's deliveries against the events it should have had, in log order: each is at
 * most one step past the furthest event delivered before it (a repeat goes back, nothing jumps
 * ahead), and none is missing.
 */
const checkDeliveries = (endpoint: Endpoint, expected: readonly string[]) => {
  const index = new Map(expected.map((id, at) => [id, at]))
  let furthest = -1
  const jumps: string[] = []
  const strangers: string[] = []
  for (const received of endpoint.receiver.received) {
    const at = index.get(received.json.id)
    if (at === undefined) strangers.push(received.json.id)
    else {
      if (at > furthest + 1) jumps.push(`${received.json.id} (#${at}) after #${furthest}`)
      furthest = Math.max(furthest, at)
    }
  }
  const seen = new Set(endpoint.receiver.received.map((received: Received) => received.json.id))
  return { jumps, strangers, missing: expected.filter((id) => !seen.has(id)), seen: seen.size }
}

describe(`webhook deliveries with the delivering process killed at ${KILLS} random moments`, () => {
  let database: PostgresDatabase
  let api: TestTessera
  let configFile: string
  const endpoints: Endpoint[] = []
  const unverified: string[] = []

  const deliverer = projectorProcess(() => ({
    DATABASE_URL: database.url,
    AUTH_SECRET: SECRET,
    TESSERA_CONFIG: configFile,
  }))

  beforeAll(async () => {
    database = await freshPostgres()
    const dir = mkdtempSync(join(tmpdir(), 'tessera-webhook-kill-'))
    configFile = join(dir, 'tessera.config.json')
    writeFileSync(configFile, JSON.stringify({ webhooks: { allowAddresses: ['127.0.0.0/8'] } }))
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        AUTH_SECRET: SECRET,
        DATABASE_URL: database.url,
        SERVER_KEYS: `app=${SERVER_KEY}`,
        TESSERA_CONFIG: configFile,
        // Commands wait for read models only briefly: while the deliverer (which projects) is down,
        // events keep coming (answered 503, in the log all the same).
        READ_YOUR_WRITES_TIMEOUT_MS: '300',
      },
      { cwd: dir },
    )
    const own = await openTesseraDatabase({ kind: 'postgres', url: database.url })
    const running = await createTessera({
      config,
      logger: pino({ level: 'silent' }),
      role: 'api',
      database: own,
    })
    api = { ...running, baseUrl: config.baseUrl, api: testClient(running), cleanup: () => running.close() }
  })
  afterAll(async () => {
    await deliverer.kill()
    await api?.cleanup()
    await Promise.all(endpoints.map((endpoint) => endpoint.receiver.close()))
    await database?.close()
  })

  /** The ids of the feed's events of `types` after `cursor`, in log order. */
  const feed = async (types: readonly string[], after: string) => {
    const ids: string[] = []
    let cursor = after
    for (;;) {
      const page = await api.api.request(
        'GET',
        `/events?limit=100&types=${types.join(',')}${cursor ? `&after=${cursor}` : ''}`,
        undefined,
        server,
      )
      expect(page.status, page.body).toBe(200)
      const { events, cursor: next } = page.json as { events: { id: string }[]; cursor: string }
      ids.push(...events.map((event) => event.id))
      cursor = next
      if (events.length === 0) return { ids, cursor }
    }
  }

  const signedUpPeople = async (): Promise<Browser[]> => {
    const people: Browser[] = []
    // The first answers may come before the child projector is up (503, the user made all the
    // same): such a user signs in once the read models show it.
    for (let worker = 0; worker < WORKERS; worker++) {
      const browser = browserFor(api)
      const credentials = { email: `worker-${worker}@example.com`, password: PASSWORD }
      let answer = await browser.post('/sign-up/email', { name: `worker ${worker}`, ...credentials })
      for (let attempt = 0; answer.status !== 200 && attempt < 90; attempt++) {
        await sleep(1000)
        answer = await browser.post('/sign-in/email', credentials)
      }
      expect(answer.status).toBe(200)
      people.push(browser)
    }
    return people
  }

  const addEndpoint = async (types: string[]) => {
    const receiver = await startReceiver()
    const created = await api.api.request(
      'POST',
      '/webhook/create',
      { url: receiver.url, eventTypes: types },
      server,
    )
    expect(created.status, created.body).toBe(200)
    const { endpoint, secret } = created.json as { endpoint: { id: string }; secret: string }
    // Verified as it arrives (the signature's timestamp must be recent): a bad one is answered 400
    // and noted, so it would come again and the test fails on the note.
    const verifier = new Webhook(secret)
    receiver.answer = (received) => {
      try {
        const body = verifier.verify(received.body, received.headers as Record<string, string>) as {
          id: string
        }
        if (received.headers['webhook-id'] === body.id) return 200
      } catch {}
      unverified.push(received.json.id)
      return 400
    }
    endpoints.push({ id: endpoint.id, secret, receiver, types })
  }

  it('delivers every event at least once and in order per endpoint', async () => {
    const seed = Number(process.env.FAULT_SEED ?? Date.now() % 1_000_000)
    const random = randomFrom(seed)
    deliverer.start()
    const people = await signedUpPeople()
    await addEndpoint(['user.updated'])
    await addEndpoint(['user.updated', 'session.created'])
    // Events before this cursor were made before the endpoints and are not theirs.
    const { cursor: start } = await feed(['user.updated', 'session.created'], '')

    let made = 0
    const statuses: number[] = []
    // Renames (one `user.updated` each), and every tenth a sign-in (a `session.created`). While the
    // deliverer is down the answers wait for read models and come back 503: the event is in the log
    // all the same, and the feed read afterwards is what counts.
    const load = people.map(async (browser, worker) => {
      while (made < EVENTS) {
        const n = made++
        if (n % 10 === 9) {
          const device = browserFor(api)
          const answer = await device.post('/sign-in/email', {
            email: `worker-${worker}@example.com`,
            password: PASSWORD,
          })
          statuses.push(answer.status)
        } else statuses.push((await browser.post('/update-user', { name: `worker ${worker} #${n}` })).status)
      }
    })
    let loadDone = false
    const loaded = Promise.all(load).finally(() => {
      loadDone = true
    })

    const received = () => endpoints.reduce((sum, endpoint) => sum + endpoint.receiver.received.length, 0)
    const kills: { afterMs: number; made: number; received: number }[] = []
    try {
      for (let kill = 0; kill < KILLS && !loadDone; kill++) {
        // A kill lands while deliveries flow: once the restarted process has delivered something
        // (its start takes a while on a loaded machine), at a random moment after that.
        const before = received()
        await waitUntil('the deliverer to deliver', async () => received() > before || loadDone, 60_000)
        const afterMs = Math.round(random() * 1500)
        await sleep(afterMs)
        await deliverer.kill()
        kills.push({ afterMs, made, received: received() })
        console.log(
          `[fault progress] kill ${kill + 1}/${KILLS} ${afterMs} ms into deliveries: ${made} commands made, ${received()} deliveries received`,
        )
        deliverer.start()
      }
    } finally {
      await loaded
    }

    const expected = await Promise.all(
      endpoints.map(async (endpoint) => (await feed(endpoint.types, start)).ids),
    )
    const finished = Date.now()
    await waitUntil(
      'every event delivered',
      async () =>
        endpoints.every((endpoint, at) => checkDeliveries(endpoint, expected[at] ?? []).missing.length === 0),
      180_000,
    ).catch(() => {})
    const drainMs = Date.now() - finished
    const results = endpoints.map((endpoint, at) => checkDeliveries(endpoint, expected[at] ?? []))
    printFigures('webhook deliverer kills', {
      seed,
      kills: kills.length,
      killAfterMs: kills.map((one) => one.afterMs),
      expected: expected.map((ids) => ids.length),
      deliveries: endpoints.map((endpoint) => endpoint.receiver.received.length),
      duplicates: endpoints.map(
        (endpoint, at) => endpoint.receiver.received.length - (results[at]?.seen ?? 0),
      ),
      drainSeconds: seconds(drainMs),
      answers: tally(statuses),
    })
    expect(unverified, 'deliveries that did not verify').toEqual([])
    expect(expected[1]?.length).toBeGreaterThanOrEqual(EVENTS - WORKERS)
    for (const [at, result] of results.entries()) {
      expect(result.missing, `endpoint ${at} missed events (seed ${seed})`).toEqual([])
      expect(result.jumps, `endpoint ${at} out of order (seed ${seed})`).toEqual([])
      expect(result.strangers, `endpoint ${at} got events it did not ask for`).toEqual([])
    }
    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([])
  }, 900_000)
})
