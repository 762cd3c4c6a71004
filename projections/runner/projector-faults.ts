/// What an operator sees and acts on when a projection cannot apply an event: the fault that halted
/// a projector group (one row per group) and the events an operator chose to skip. Both live in the
/// database, so every instance reports the same readiness, a restarted projector stays halted, and
/// `tessera projections status|retry|skip` works from another process.

import { type Kysely, sql } from 'kysely'
import { formatPosition, type GlobalPosition } from '../../infra/event-store/event-store.js'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their tables
type AnyDb = Kysely<any>

export type ProjectorFaultsTable = {
  name: string
  tx: string
  seq: string
  event_id: string
  event_type: string
  projection: string
  error: string
  attempts: number
  halted_at: Date
}

export type ProjectorSkipsTable = {
  name: string
  event_id: string
  tx: string
  seq: string
  event_type: string
  skipped_at: Date
}

type Tables = { tessera_projector_faults: ProjectorFaultsTable; tessera_projector_skips: ProjectorSkipsTable }

export type ProjectorFault = {
  group: string
  position: GlobalPosition
  eventId: string
  eventType: string
  projection: string
  error: string
  attempts: number
  haltedAt: Date
}

const tables = (db: AnyDb) => db as unknown as Kysely<Tables>

const toFault = (row: ProjectorFaultsTable): ProjectorFault => ({
  group: row.name,
  position: { tx: BigInt(row.tx), seq: BigInt(row.seq) },
  eventId: row.event_id,
  eventType: row.event_type,
  projection: row.projection,
  error: row.error,
  attempts: row.attempts,
  haltedAt: new Date(row.halted_at),
})

export const describeFault = (fault: ProjectorFault): string =>
  `projection ${fault.projection} cannot apply event ${formatPosition(fault.position)} (${fault.eventType}, ${fault.eventId}) after ${fault.attempts} attempts: ${fault.error}`

export const readFaults = async (db: AnyDb): Promise<ProjectorFault[]> =>
  (await tables(db).selectFrom('tessera_projector_faults').selectAll().orderBy('name').execute()).map(toFault)

export const readFault = async (db: AnyDb, group: string): Promise<ProjectorFault | null> => {
  const row = await tables(db)
    .selectFrom('tessera_projector_faults')
    .selectAll()
    .where('name', '=', group)
    .executeTakeFirst()
  return row ? toFault(row) : null
}

export const writeFault = async (db: AnyDb, fault: ProjectorFault): Promise<void> => {
  const values = {
    name: fault.group,
    tx: fault.position.tx.toString(),
    seq: fault.position.seq.toString(),
    event_id: fault.eventId,
    event_type: fault.eventType,
    projection: fault.projection,
    error: fault.error.slice(0, 2000),
    attempts: fault.attempts,
    halted_at: fault.haltedAt,
  }
  const { name: _name, ...update } = values
  await tables(db)
    .insertInto('tessera_projector_faults')
    .values(values)
    .onConflict((oc) => oc.column('name').doUpdateSet(update))
    .execute()
}

/** Lets the halted group try again (`tessera projections retry`): true when it was halted. */
export const clearFault = async (db: AnyDb, group: string): Promise<boolean> => {
  const result = await tables(db)
    .deleteFrom('tessera_projector_faults')
    .where('name', '=', group)
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}

/**
 * Skips the event that halted `group`, which must be the one at `position` (the operator names what
 * they skip): recorded for good, so a replay skips it too and rebuilds the same tables.
 */
export const skipFaultyEvent = async (
  db: AnyDb,
  group: string,
  position: GlobalPosition,
): Promise<ProjectorFault> =>
  tables(db)
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .selectFrom('tessera_projector_faults')
        .selectAll()
        .where('name', '=', group)
        .forUpdate()
        .executeTakeFirst()
      const fault = row ? toFault(row) : null
      if (!fault) throw new Error(`The projector group ${group} is not halted: there is nothing to skip.`)
      if (fault.position.tx !== position.tx || fault.position.seq !== position.seq)
        throw new Error(
          `The projector group ${group} is halted at ${formatPosition(fault.position)}, not ${formatPosition(position)}.`,
        )
      await trx
        .insertInto('tessera_projector_skips')
        .values({
          name: group,
          event_id: fault.eventId,
          tx: row?.tx ?? '0',
          seq: row?.seq ?? '0',
          event_type: fault.eventType,
          skipped_at: new Date(),
        })
        .onConflict((oc) => oc.columns(['name', 'event_id']).doNothing())
        .execute()
      await trx.deleteFrom('tessera_projector_faults').where('name', '=', group).execute()
      return fault
    })

export const readSkippedEventIds = async (db: AnyDb, group: string): Promise<Set<string>> => {
  const rows = await tables(db)
    .selectFrom('tessera_projector_skips')
    .select('event_id')
    .where('name', '=', group)
    .execute()
  return new Set(rows.map((row) => row.event_id))
}

export const projectorFaultsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('tessera_projector_faults')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('tx', 'bigint', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('projection', 'text', (c) => c.notNull())
      .addColumn('error', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('halted_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('tessera_projector_skips')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('tx', 'bigint', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('skipped_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('tessera_projector_skips_pk', ['name', 'event_id'])
      .execute()
  },
}
