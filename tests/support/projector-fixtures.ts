/// Test parts for projector tests: events that need no domain, a projection that records how
/// often each event was applied (and by which instance), a fault to inject, and a gate that holds a
/// batch open mid-transaction.

import { randomUUID } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import {
  type AppendResult,
  comparePositions,
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
} from '../../infra/event-store/event-store.js'
import type { Database } from '../../projections/database.js'
import type { Projection } from '../../projections/projection.js'

export const COUNTED = 'test.counted'

export const testMetadata = (at = '2026-01-01T00:00:00.000Z'): EventMetadata => ({
  actor: { type: 'system' },
  ip: null,
  userAgent: null,
  correlationId: randomUUID(),
  causationId: null,
  at,
})

/** Appends `ns.length` counted events, in one transaction, to `stream`. */
export const appendCounted = (
  store: EventStore,
  stream: string,
  ns: readonly number[],
): Promise<AppendResult> =>
  store.appendToStream(
    stream,
    ns.map((n) => ({ id: randomUUID(), type: COUNTED, data: { n }, metadata: testMetadata() })),
    { expectedVersion: 'any' },
  )

export const latest = (positions: readonly GlobalPosition[]): GlobalPosition => {
  const [first, ...rest] = positions
  if (!first) throw new Error('no positions')
  return rest.reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b), first)
}

/** The table `countingProjection` writes: one row per event id, so a second application shows. */
export const createApplicationsTable = async (db: Kysely<Database>): Promise<void> => {
  await sql`
    create table test_applications (
      event_id uuid primary key,
      n integer not null,
      applied_by text not null,
      applications integer not null default 1,
      applied_order bigint generated always as identity
    )`.execute(db)
}

export type Application = { eventId: string; n: number; appliedBy: string; applications: number }

/** Every recorded application, in the order the rows were first written. */
export const applications = async (db: Kysely<Database>): Promise<Application[]> => {
  const { rows } = await sql<Application>`
    select event_id::text as "eventId", n, applied_by as "appliedBy", applications
    from test_applications order by applied_order`.execute(db)
  return rows
}

/** Counts applications of counted events instead of failing on a repeat, so a test sees how many. */
export const countingProjection = (appliedBy: string): Projection => ({
  name: `counting-${appliedBy}`,
  tables: [],
  async apply(trx, event) {
    if (event.type !== COUNTED) return
    const { n } = event.data as { n: number }
    await sql`
      insert into test_applications (event_id, n, applied_by) values (${event.id}, ${n}, ${appliedBy})
      on conflict (event_id) do update set applications = test_applications.applications + 1`.execute(trx)
  },
})

export type Fault = Projection & { armed: boolean }

/** Throws on the events `matches` picks while armed: a crash in the middle of a batch. */
export const faultProjection = (matches: (event: RecordedEvent) => boolean): Fault => {
  const fault: Fault = {
    name: 'fault',
    tables: [],
    armed: true,
    async apply(_trx, event) {
      if (fault.armed && matches(event)) throw new Error(`injected fault at ${event.type}`)
    },
  }
  return fault
}

export type Gate = Projection & { reached: Promise<void>; open(): void }

/** Holds the batch (and its transaction) open at the first event `matches` picks, until opened. */
export const gateProjection = (matches: (event: RecordedEvent) => boolean): Gate => {
  let arrive: () => void = () => {}
  let open: () => void = () => {}
  const reached = new Promise<void>((resolve) => {
    arrive = resolve
  })
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return {
    name: 'gate',
    tables: [],
    reached,
    open,
    async apply(_trx, event) {
      if (!matches(event)) return
      arrive()
      await opened
    },
  }
}

export type CheckpointRow = { name: string; tx: string; seq: string }

export const checkpointRow = async (
  db: Kysely<Database>,
  group = 'read-models',
): Promise<CheckpointRow | null> => {
  const row = await db
    .selectFrom('tessera_checkpoints')
    .selectAll()
    .where('name', '=', group)
    .executeTakeFirst()
  return row ? { name: row.name, tx: String(row.tx), seq: String(row.seq) } : null
}

export const asRow = (position: GlobalPosition, group = 'read-models'): CheckpointRow => ({
  name: group,
  tx: position.tx.toString(),
  seq: position.seq.toString(),
})
