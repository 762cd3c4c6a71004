/// Fault 3: the projector process killed (SIGKILL, the real process: `tessera serve --role
/// projector`, the compiled CLI, in a child) at 20 random moments while an API instance takes commands, and started
/// again each time. After each restart has caught up, the read models equal a full replay of the
/// log into an empty database: a kill mid-batch leaves no half-applied batch and no skipped event.
///
/// A child process rather than the in-process fault hooks: a real kill is what a crashed container
/// does (the connection drops, PostgreSQL rolls the batch back), and no code of the projector runs
/// to clean up. The moments are random (the seed is printed, FAULT_SEED repeats a run).

import { sql } from 'kysely'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTesseraDatabase } from '../../app/database.js'
import { openEventStore } from '../../app/server/open-event-store.js'
import { createTessera } from '../../app/server/tessera.js'
import { type Config, loadConfig } from '../../infra/config/config.js'
import { readModelProjections } from '../../projections/all.js'
import { replay } from '../../projections/runner/projector.js'
import { type Browser, browserFor } from '../support/browser.js'
import { freshPostgres, type PostgresDatabase } from '../support/databases.js'
import { readModelTables, snapshotTables } from '../support/table-snapshot.js'
import { type TestTessera, testClient } from '../support/tessera.js'
import { printFigures, projectorProcess, randomFrom, seconds, sleep, tally, waitUntil } from './support.js'

// FAULT_KILLS runs fewer rounds where the machine is too slow for 20 (each restart is a Node start).
const KILLS = Number(process.env.FAULT_KILLS ?? 20)
const WORKERS = 4
const SECRET = 'projector-kill-secret-0123456789abcdefghij'

describe(`the projector process killed at ${KILLS} random moments under load`, () => {
  let database: PostgresDatabase
  let api: TestTessera
  let config: Config

  const projector = projectorProcess(() => ({ DATABASE_URL: database.url, AUTH_SECRET: SECRET }))

  beforeAll(async () => {
    // The global setup built dist/ once (what `bin/tessera.js` does on every start), so each restart
    // here is only the start.
    database = await freshPostgres()
    config = loadConfig(
      { NODE_ENV: 'test', AUTH_SECRET: SECRET, DATABASE_URL: database.url },
      { cwd: import.meta.dirname },
    )
    // The API instance gets its own pool; `database` stays for the test's own reads.
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
    await projector.kill()
    await api?.cleanup()
    await database?.close()
  })

  it('leaves read models equal to a full replay after every kill and restart', async () => {
    const seed = Number(process.env.FAULT_SEED ?? Date.now() % 1_000_000)
    const random = randomFrom(seed)
    projector.start()
    const people: Browser[] = []
    // The first answers may come before the child projector is up (503, user created all the
    // same): such a user signs in once the read models show it.
    for (let worker = 0; worker < WORKERS; worker++) {
      const browser = browserFor(api)
      const credentials = { email: `worker-${worker}@example.com`, password: 'correct horse battery' }
      let answer = await browser.post('/sign-up/email', { name: `worker ${worker}`, ...credentials })
      for (let attempt = 0; answer.status !== 200 && attempt < 20; attempt++) {
        await sleep(1000)
        answer = await browser.post('/sign-in/email', credentials)
      }
      expect(answer.status).toBe(200)
      people.push(browser)
    }

    let paused = true
    let inFlight = 0
    const statuses: number[] = []
    let stop = false
    // Renames (cheap, one event each), and now and then a new session and its sign-out.
    const load = people.map(async (browser, worker) => {
      for (let n = 0; !stop; n++) {
        if (paused) {
          await sleep(20)
          continue
        }
        inFlight++
        try {
          if (n % 10 === 9) {
            const device = browserFor(api)
            const signIn = await device.post('/sign-in/email', {
              email: `worker-${worker}@example.com`,
              password: 'correct horse battery',
            })
            statuses.push(signIn.status)
            if (signIn.status === 200) statuses.push((await device.post('/sign-out')).status)
          } else
            statuses.push((await browser.post('/update-user', { name: `worker ${worker} #${n}` })).status)
        } finally {
          inFlight--
        }
        await sleep(5)
      }
    })

    const headPosition = async () => {
      const { rows } = await sql<{ tx: string; seq: string }>`
        select tx_id::text as tx, seq::text as seq from tessera_events order by tx_id desc, seq desc limit 1`.execute(
        database.db,
      )
      return rows[0] ?? null
    }
    const checkpoint = async () =>
      (
        await sql<{ tx: string; seq: string }>`
          select tx::text as tx, seq::text as seq from tessera_checkpoints where name = 'read-models'`.execute(
          database.db,
        )
      ).rows[0] ?? null
    const caughtUp = async () => {
      const [head, at] = await Promise.all([headPosition(), checkpoint()])
      return head !== null && at !== null && head.tx === at.tx && head.seq === at.seq
    }
    const { store } = await openEventStore(database, config)

    const rounds: { killAfterMs: number; eventsAtKill: number; catchUpMs: number; equal: boolean }[] = []
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        paused = false
        const killAfterMs = Math.round(200 + random() * 2300)
        await sleep(killAfterMs)
        await projector.kill()
        const eventsAtKill = Number(
          (await sql<{ n: string }>`select count(*) as n from tessera_events`.execute(database.db)).rows[0]
            ?.n,
        )
        projector.start()
        // Some more load against the restarting projector, then quiet so it can be compared.
        await sleep(Math.round(random() * 1000))
        paused = true
        await waitUntil('the load to pause', async () => inFlight === 0, 30_000)
        const restarted = Date.now()
        await waitUntil('the restarted projector to catch up', caughtUp, 60_000)
        const catchUpMs = Date.now() - restarted

        const scratch = await freshPostgres()
        try {
          await replay({ db: scratch.db, store, projections: readModelProjections })
          const live = await snapshotTables(database.db, readModelTables())
          const replayed = await snapshotTables(scratch.db, readModelTables())
          const equal = JSON.stringify(live) === JSON.stringify(replayed)
          rounds.push({ killAfterMs, eventsAtKill, catchUpMs, equal })
          console.log(
            `[fault progress] kill ${kill + 1}/${KILLS} after ${killAfterMs} ms: ${eventsAtKill} events, caught up in ${catchUpMs} ms, equal to replay: ${equal}`,
          )
          expect(live, `after kill ${kill + 1} (seed ${seed})`).toEqual(replayed)
        } finally {
          await scratch.close()
        }
      }
    } finally {
      stop = true
      paused = false
      await Promise.all(load)
      await store.close()
      printFigures('projector kills', {
        seed,
        kills: rounds.length,
        equalToReplay: rounds.filter((round) => round.equal).length,
        events: rounds.at(-1)?.eventsAtKill,
        killAfterMs: rounds.map((round) => round.killAfterMs),
        catchUpSecondsMax: seconds(Math.max(0, ...rounds.map((round) => round.catchUpMs))),
        answers: tally(statuses),
      })
    }
    expect(rounds.filter((round) => round.equal)).toHaveLength(KILLS)
    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([])
  }, 600_000)
})
