/// Reading and writing a named checkpoint in `tessera_checkpoints`: how far one consumer of the
/// log (a projector group, a reactor) has got. Shared so every consumer stores positions the same way.

import type { Kysely } from 'kysely'
import { type GlobalPosition, START } from '../../infra/event-store/event-store.js'
import type { Database } from '../database.js'

/** The stored position of `name`, or the start of the log when it has none yet. */
export const readCheckpoint = async (db: Kysely<Database>, name: string): Promise<GlobalPosition> => {
  const row = await db
    .selectFrom('tessera_checkpoints')
    .selectAll()
    .where('name', '=', name)
    .executeTakeFirst()
  return row ? { tx: BigInt(row.tx), seq: BigInt(row.seq) } : START
}

/** Several stored positions in one query; a name without one is absent from the map. */
export const readCheckpoints = async (
  db: Kysely<Database>,
  names: readonly string[],
): Promise<Map<string, GlobalPosition>> => {
  const rows = await db.selectFrom('tessera_checkpoints').selectAll().where('name', 'in', names).execute()
  return new Map(rows.map((row) => [row.name, { tx: BigInt(row.tx), seq: BigInt(row.seq) }]))
}

export const writeCheckpoint = async (
  db: Kysely<Database>,
  name: string,
  position: GlobalPosition,
): Promise<void> => {
  const values = { name, tx: position.tx.toString(), seq: position.seq.toString() }
  await db
    .insertInto('tessera_checkpoints')
    .values(values)
    .onConflict((oc) => oc.column('name').doUpdateSet({ tx: values.tx, seq: values.seq }))
    .execute()
}
