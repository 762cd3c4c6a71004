/// `replay` over a log written before today's code (issue 31, "Checks"): the fixture log
/// (tests/fixtures/replay-log.2026-11.ndjson, a `tessera export` of what a real server wrote for a
/// sign-up, a second sign-in, an organization, an API key and a sign-out) is imported into an empty
/// database and replayed; the read models must equal the ones the server had built then. A change
/// to an event's shape (a new version, an upcast) that loses or alters what old events said fails
/// here. Tables, columns and keys of a JSON column (an activity entry's details) added since the
/// fixture was written are not compared.

import { readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import { expect, it } from 'vitest'
import { importArchive } from '../../app/cli/log-archive.js'
import { withPersonalDataEncryption } from '../../infra/event-store/personal-data/encrypting-event-store.js'
import { createKeyring } from '../../infra/event-store/personal-data/keyring.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { readModelProjections } from '../../projections/all.js'
import type { Database } from '../../projections/database.js'
import { replay } from '../../projections/runner/projector.js'
import { describeEachDatabase } from '../support/databases.js'
import { snapshotTables } from '../support/table-snapshot.js'

/** The AUTH_SECRET of the server that wrote the fixture (tests/fixtures/write-replay-fixture.mjs). */
const FIXTURE_SECRET = 'replay-fixture-secret-0123456789abcdefghij'
const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
const LOG = fixture('replay-log.2026-11.ndjson')
type Rows = Record<string, Record<string, unknown>[]>
const EXPECTED = JSON.parse(fixture('replay-log.2026-11.read-models.json')) as Rows

/** As the fixture was saved: JSON, bigints as text. */
const asSaved = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v)))

// Log positions are re-based by the import (each cluster has its own transaction ids): not compared.
const REBASED = new Set(['position', 'position_tx', 'position_seq'])

const jsonObject = (value: unknown): Record<string, unknown> | undefined => {
  if (typeof value !== 'string' || !value.startsWith('{')) return undefined
  try {
    return JSON.parse(value) as Record<string, unknown>
  } catch {
    return undefined
  }
}

/** A JSON object held as text, cut to the keys the fixture's value had; any other value as it is. */
const knownKeys = (value: unknown, like: unknown): unknown => {
  const [object, known] = [jsonObject(value), jsonObject(like)]
  if (object === undefined || known === undefined) return value
  return Object.fromEntries(Object.keys(known).map((key) => [key, object[key]]))
}

/** Each row cut to the columns (and JSON keys) the fixture knew, positions left out. */
const knownColumns = (rows: Record<string, unknown>[], like: Record<string, unknown>[]) =>
  rows.map((row, index) =>
    Object.fromEntries(
      Object.keys(like[index] ?? row)
        .filter((key) => !REBASED.has(key))
        .map((key) => [key, knownKeys(row[key], like[index]?.[key])]),
    ),
  )

describeEachDatabase('replay of a log written before the change', (fresh) => {
  it('rebuilds the read models the server had built from it', async () => {
    const target = await fresh()
    try {
      await importArchive(target.db as Kysely<Database>, Readable.from([LOG]), [FIXTURE_SECRET])
      const store = withPersonalDataEncryption(
        createSqlEventStore(target.db),
        createKeyring(target.db, FIXTURE_SECRET),
      )
      await replay({ db: target.db as Kysely<Database>, store, projections: readModelProjections })
      const rebuilt = asSaved(await snapshotTables(target.db, Object.keys(EXPECTED))) as Rows
      expect(rebuilt.users).toHaveLength(1)
      for (const [table, rows] of Object.entries(EXPECTED))
        expect(knownColumns(rebuilt[table] ?? [], rows), table).toEqual(knownColumns(rows, rows))
      await store.close()
    } finally {
      await target.close()
    }
  }, 240_000)
})
