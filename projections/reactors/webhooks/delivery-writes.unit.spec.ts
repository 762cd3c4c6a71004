import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { Database } from '../../database.js'
import { gatheringWrites } from './delivery-writes.js'
import type { WebhookDeliveriesTable, WebhookProgressRow } from './webhook-deliveries.table.js'

const progress = (endpoint_id: string, position: string): WebhookProgressRow => ({
  endpoint_id,
  position,
  replay_generation: 0,
  failures: 0,
  failing_since: null,
  next_attempt_at: null,
})

const attempt = (endpoint_id: string, event_id: string) =>
  ({ id: `${endpoint_id}-${event_id}`, endpoint_id, event_id }) as WebhookDeliveriesTable

type Written = { q: unknown; attempts: string[]; endpoints: string[] }

/** Records each statement; `hold` keeps a write in flight until released. */
const recorder = () => {
  const written: Written[] = []
  const held: Array<() => void> = []
  let hold = false
  let fail: Error | null = null
  const write = async (
    q: unknown,
    attempts: readonly WebhookDeliveriesTable[],
    rows: readonly WebhookProgressRow[],
  ) => {
    written.push({ q, attempts: attempts.map((a) => a.id), endpoints: rows.map((r) => r.endpoint_id) })
    if (hold) await new Promise<void>((resolve) => held.push(resolve))
    if (fail) throw fail
  }
  return {
    written,
    held,
    write,
    holdNext: () => {
      hold = true
    },
    failWith: (error: Error) => {
      fail = error
    },
  }
}

const conn = {} as Kysely<Database>

describe("the endpoints' attempts and checkpoints are written", () => {
  it('in one statement for the saves that come within the gathering time', async () => {
    const db = recorder()
    const writes = gatheringWrites(5, db.write)
    await Promise.all([
      writes.save(conn, [attempt('a', 'e1'), attempt('a', 'e2')], progress('a', '1:2')),
      writes.save(conn, [attempt('b', 'e1')], progress('b', '1:2')),
      writes.save(conn, [], progress('c', '1:2')),
    ])
    expect(db.written).toEqual([{ q: conn, attempts: ['a-e1', 'a-e2', 'b-e1'], endpoints: ['a', 'b', 'c'] }])
  })

  it('after the write in flight, with the saves that came while it ran', async () => {
    const db = recorder()
    const writes = gatheringWrites(1, db.write)
    db.holdNext()
    const first = writes.save(conn, [attempt('a', 'e1')], progress('a', '1:1'))
    await new Promise((resolve) => setTimeout(resolve, 10))
    const later = [
      writes.save(conn, [attempt('b', 'e1')], progress('b', '1:1')),
      writes.save(conn, [attempt('c', 'e1')], progress('c', '1:1')),
    ]
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(db.written).toHaveLength(1) // the second waits for the first
    for (const release of db.held.splice(0)) release()
    await first
    await new Promise((resolve) => setTimeout(resolve, 10))
    for (const release of db.held.splice(0)) release()
    await Promise.all(later)
    expect(db.written.map((w) => w.endpoints)).toEqual([['a'], ['b', 'c']])
  })

  it('apart for another connection, and a second save of an endpoint in the next statement', async () => {
    const db = recorder()
    const writes = gatheringWrites(5, db.write)
    const other = {} as Kysely<Database>
    await Promise.all([
      writes.save(conn, [attempt('a', 'e1')], progress('a', '1:1')),
      writes.save(other, [attempt('b', 'e1')], progress('b', '1:1')),
      writes.save(conn, [attempt('a', 'e2')], progress('a', '1:2')),
    ])
    expect(db.written).toEqual([
      { q: conn, attempts: ['a-e1'], endpoints: ['a'] },
      { q: other, attempts: ['b-e1'], endpoints: ['b'] },
      { q: conn, attempts: ['a-e2'], endpoints: ['a'] },
    ])
  })

  it('or not at all: every run in a failed statement hears of it', async () => {
    const db = recorder()
    db.failWith(new Error('connection lost'))
    const writes = gatheringWrites(5, db.write)
    const saves = [
      writes.save(conn, [attempt('a', 'e1')], progress('a', '1:1')),
      writes.save(conn, [attempt('b', 'e1')], progress('b', '1:1')),
    ]
    for (const save of saves) await expect(save).rejects.toThrow('connection lost')
  })
})

describe('when attempts left at the log’s end are written', () => {
  it('at the moment already set for other endpoints while it is ahead, else a new one', () => {
    let clock = 0
    const writes = gatheringWrites(
      5,
      async () => {},
      () => clock,
    )
    expect(writes.dueAt(1000)).toBe(1000)
    clock = 40 // another endpoint's first attempt of the same commit
    expect(writes.dueAt(1000)).toBe(1000)
    clock = 999
    expect(writes.dueAt(1000)).toBe(1000)
    clock = 1000 // that moment has come: the next attempts set the next one
    expect(writes.dueAt(1000)).toBe(2000)
    expect(writes.dueAt(300)).toBe(1300) // never later than asked
  })
})
