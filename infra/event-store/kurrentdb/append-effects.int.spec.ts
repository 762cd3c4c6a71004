/// The inline hook on KurrentDB (append-effects.ts): run once per event, in log order, in the same
/// PostgreSQL transaction as its checkpoint; a crash (here: the hook failing) between the KurrentDB
/// append and the hook is repaired by the next pass; `readAll` never passes an event whose hook has
/// not run. On PGlite, over the in-memory stand-in for KurrentDB.

import { sql } from 'kysely'
import { describe, expect, test } from 'vitest'
import { freshPglite } from '../../../tests/support/databases.js'
import { anEvent, idsOf } from '../event-store.contract-support.js'
import { START } from '../event-store.js'
import type { InlineProjection } from '../sql-event-store.js'
import { createInMemoryLog } from './in-memory-log.fixture.js'
import { createKurrentDbEventStore } from './kurrentdb-event-store.js'

const setup = async () => {
  const database = await freshPglite()
  // A primary key: a second run of the hook on one event fails loudly.
  await sql`create table hooked (event_id text primary key, n serial)`.execute(database.db)
  let failing = false
  const hook: InlineProjection = async (trx, events) => {
    if (failing) throw new Error('the read-model database went away')
    for (const event of events) await sql`insert into hooked (event_id) values (${event.id})`.execute(trx)
  }
  const log = createInMemoryLog()
  const open = () =>
    createKurrentDbEventStore({ log: { ...log, close: async () => {} }, inline: { db: database.db, hook } })
  const hooked = async () =>
    (await sql<{ event_id: string }>`select event_id from hooked order by n`.execute(database.db)).rows.map(
      (row) => row.event_id,
    )
  return { database, open, hooked, fail: (value: boolean) => (failing = value) }
}

describe('the inline hook on KurrentDB', () => {
  test('runs once per event, in log order, before the append returns, from every process', async () => {
    const { database, open, hooked } = await setup()
    const [one, two] = [open(), open()]
    try {
      const first = anEvent()
      await one.appendToStream('s', [first], { expectedVersion: 'no_stream' })
      expect(await hooked()).toEqual([first.id])

      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (index % 2 === 0 ? one : two).appendToStream(`s-${index}`, [anEvent(), anEvent()], {
            expectedVersion: 'any',
          }),
        ),
      )
      const all = await one.readAll(START, 100)
      expect(all).toHaveLength(41)
      expect(await hooked()).toEqual(idsOf(all))
    } finally {
      await one.close()
      await two.close()
      await database.close()
    }
  })

  test('a hook that failed after the append ran is run by the next pass, and readAll waits for it', async () => {
    const { database, open, hooked, fail } = await setup()
    const store = open()
    try {
      const before = anEvent()
      await store.appendToStream('s', [before], { expectedVersion: 'no_stream' })
      fail(true)
      const stranded = anEvent()
      // The event is in the log, its hook is not: the command learns it did not take effect.
      await expect(store.appendToStream('s', [stranded], { expectedVersion: 1 })).rejects.toThrow('went away')
      expect(idsOf(await store.readStream('s'))).toEqual([before.id, stranded.id])
      expect(await hooked()).toEqual([before.id])
      // Nothing reads past the hook: the projector would otherwise apply an event whose hook has
      // not run.
      await expect(store.readAll(START, 10)).rejects.toThrow('went away')

      fail(false)
      expect(idsOf(await store.readAll(START, 10))).toEqual([before.id, stranded.id])
      expect(await hooked()).toEqual([before.id, stranded.id])
    } finally {
      await store.close()
      await database.close()
    }
  })
})
