/// `replay` rebuilds read models equal to the live ones: a log written through the real HTTP API
/// (sign-ups, sign-ins, a refresh and an expiry on a fake clock, revocations, sign-outs, a profile
/// change, a password change, a reset request, a deletion) is replayed on the same database, and
/// into a fresh database that holds only the log. Every table the projections declare is compared,
/// so a new read model is covered as soon as its projection is in `readModelProjections`.

import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { OpenDatabase } from '../../infra/db/database.js'
import { comparePositions, type GlobalPosition, START } from '../../infra/event-store/event-store.js'
import { withPersonalDataEncryption } from '../../infra/event-store/personal-data/encrypting-event-store.js'
import { createKeyring } from '../../infra/event-store/personal-data/keyring.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { readModelProjections } from '../../projections/all.js'
import type { Database } from '../../projections/database.js'
import { replay } from '../../projections/runner/projector.js'
import { type Browser, browserFor } from '../support/browser.js'
import { describeEachDatabase } from '../support/databases.js'
import {
  readModelTables,
  snapshotTables,
  type TableSnapshot,
  tablesOutsideTheLog,
} from '../support/table-snapshot.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SECRET = 'replay-test-secret-0123456789abcdefghijkl'
const PASSWORD = 'correct horse battery'
const ORIGIN = 'http://localhost:3000'
const T0 = Date.parse('2030-03-01T09:00:00.000Z')
const HOUR = 3_600_000
const DAY = 24 * HOUR

/** The event store's own tables: the log and what appending keeps beside it (claims, data keys). */
const LOG_TABLES = ['tessera_events', 'tessera_streams', 'tessera_unique_claims', 'tessera_data_keys']

describeEachDatabase('replay of a log written over HTTP', (fresh, kind) => {
  let tessera: TestTessera
  let now = T0
  let live: TableSnapshot
  const tables = readModelTables()

  beforeAll(async () => {
    tessera = await startTessera({
      kind,
      env: { AUTH_SECRET: SECRET, RATE_LIMIT: 'off' },
      clock: () => new Date(now),
      features: { user: { deleteUser: { immediate: true } } },
    })
    await populate(tessera, (ms) => {
      now += ms
    })
    await settle(tessera)
    live = await snapshotTables(tessera.database.db, tables)
  })
  afterAll(() => tessera?.cleanup())

  it('declares every read-model table, and the log filled the ones this slice writes', async () => {
    expect(
      await tablesOutsideTheLog(tessera.database.db),
      'a table outside the log that no projection declares would survive `replay` with stale rows ' +
        '(infrastructure tables take the tessera_ prefix)',
    ).toEqual([...tables].sort())
    expect(live.users?.map((row) => row.name)).toEqual(expect.arrayContaining(['Ada', 'Bob', 'Cyd Renamed']))
    expect(live.users).toHaveLength(3)
    expect(live.accounts).toHaveLength(3)
    expect(live.sessions?.map((row) => row.user_agent).sort()).toEqual(['Desktop', 'Laptop'])
  })

  it('replayed on the same database, gives read models equal to the live ones', async () => {
    const { db } = tessera.database
    const position = await replay({ db, store: tessera.store, projections: readModelProjections })
    expect(await snapshotTables(db, tables)).toEqual(live)
    expect(position).toEqual(tessera.projector.position())
  })

  it('replayed into a fresh database holding only the log, gives the same read models', async () => {
    const target = await fresh()
    try {
      await copyLog(tessera.database.db, target)
      // Built as Tessera builds its store: personal data is sealed in the log.
      const sqlStore = createSqlEventStore(target.db)
      const secret = tessera.ctx.config.secret
      const store = withPersonalDataEncryption(sqlStore, createKeyring(target.db, secret))
      expect(await snapshotTables(target.db, tables)).toEqual(Object.fromEntries(tables.map((t) => [t, []])))
      await replay({ db: target.db, store, projections: readModelProjections })
      expect(await snapshotTables(target.db, tables)).toEqual(live)
      await store.close()
    } finally {
      await target.close()
    }
  })
})

/** Drives the API as four people on several devices; `advance` moves the fake clock. */
const populate = async (tessera: TestTessera, advance: (ms: number) => void): Promise<void> => {
  const device = (userAgent: string) => browserFor(tessera, { origin: ORIGIN, 'user-agent': userAgent })
  const ok = async (response: Promise<{ status: number; body: string }>) => {
    const { status, body } = await response
    expect(status, body).toBe(200)
  }
  const signUp = (browser: Browser, name: string) =>
    ok(
      browser.post('/sign-up/email', {
        name,
        email: `${name.toLowerCase()}@example.com`,
        password: PASSWORD,
      }),
    )
  const signIn = (browser: Browser, name: string, extra: object = {}) =>
    ok(
      browser.post('/sign-in/email', {
        email: `${name.toLowerCase()}@example.com`,
        password: PASSWORD,
        ...extra,
      }),
    )

  const [adaLaptop, bobLaptop, cydLaptop, deeLaptop] = ['Laptop', 'Laptop', 'Laptop', 'Laptop'].map(device)
  if (!adaLaptop || !bobLaptop || !cydLaptop || !deeLaptop) throw new Error('unreachable')
  await signUp(adaLaptop, 'Ada')
  await signUp(bobLaptop, 'Bob')
  await signUp(cydLaptop, 'Cyd')
  await signUp(deeLaptop, 'Dee')
  expect(
    (
      await device('Laptop').post('/sign-up/email', {
        name: 'A',
        email: 'ada@example.com',
        password: PASSWORD,
      })
    ).status,
  ).toBe(422)
  expect(
    (await device('Laptop').post('/sign-in/email', { email: 'bob@example.com', password: 'wrong password' }))
      .status,
  ).toBe(401)

  advance(HOUR)
  const adaPhone = device('Phone')
  const adaKiosk = device('Kiosk')
  await signIn(adaPhone, 'Ada')
  await signIn(adaKiosk, 'Ada', { rememberMe: false })
  await signIn(device('Phone'), 'Bob')
  await signIn(device('Tablet'), 'Bob')
  await ok(cydLaptop.post('/update-user', { name: 'Cyd Renamed', image: 'https://example.com/cyd.png' }))
  await ok(
    bobLaptop.post('/change-password', {
      currentPassword: PASSWORD,
      newPassword: `${PASSWORD}!`,
      revokeOtherSessions: true,
    }),
  )
  await ok(deeLaptop.post('/delete-user', {}))
  await ok(
    device('Laptop').post('/request-password-reset', { email: 'ada@example.com', redirectTo: '/reset' }),
  )

  // Past the update age (refresh) and past the 1-day session of "don't remember me" (expiry).
  advance(2 * DAY)
  const refreshed = (await adaLaptop.get('/get-session')).json as { session: { expiresAt: string } }
  expect(Date.parse(refreshed.session.expiresAt)).toBeGreaterThan(T0 + 8 * DAY)
  expect((await adaKiosk.get('/get-session')).json).toBeNull()
  const phone = (await adaPhone.get('/get-session?disableRefresh=true')).json as { session: { id: string } }
  await ok(adaLaptop.post('/revoke-session', { token: phone.session.id }))
  await ok(cydLaptop.post('/sign-out'))
  await ok(bobLaptop.post('/revoke-sessions'))

  advance(HOUR)
  await signIn(device('Desktop'), 'Ada')
}

/** Waits until the read models include the last event of the log (some requests append after answering). */
const settle = async (tessera: TestTessera): Promise<void> => {
  let last: GlobalPosition = START
  for (let quiet = 0; quiet < 5; ) {
    const current = await lastPosition(tessera.database.db)
    quiet = comparePositions(current, last) === 0 ? quiet + 1 : 0
    last = current
    expect(await tessera.projector.waitFor(last, 10_000)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const lastPosition = async (db: Kysely<Database>): Promise<GlobalPosition> => {
  const { rows } = await sql<{ tx: string; seq: string }>`
    select tx_id::text as tx, seq::text as seq from tessera_events order by tx_id desc, seq desc limit 1`.execute(
    db,
  )
  const row = rows[0]
  return row ? { tx: BigInt(row.tx), seq: BigInt(row.seq) } : START
}

/**
 * Copies the log row for row, positions included (read models may store them), into `target`.
 * A position's transaction id is only readable once the target's own transaction ids have passed
 * it, so the target burns ids until then (a PGlite clone starts behind the database it mirrors).
 */
const copyLog = async (source: Kysely<Database>, target: OpenDatabase): Promise<void> => {
  for (const table of LOG_TABLES) {
    const { rows } = await sql<{ rows: string | null }>`
      select jsonb_agg(to_jsonb(t))::text as rows from ${sql.table(table)} t`.execute(source)
    const json = rows[0]?.rows ?? '[]'
    await sql`
      insert into ${sql.table(table)} overriding system value
      select * from jsonb_populate_recordset(null::${sql.table(table)}, ${json}::jsonb)`.execute(target.db)
  }
  await sql`
    select setval(pg_get_serial_sequence('tessera_events', 'seq'), (select max(seq) from tessera_events))`.execute(
    target.db,
  )
  const last = await lastPosition(target.db)
  for (let attempt = 0; attempt < 100_000; attempt++) {
    const { rows } = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(target.db)
    if (BigInt(rows[0]?.id ?? '0') > last.tx) return
  }
  throw new Error('the target database never reached the log’s transaction ids')
}
