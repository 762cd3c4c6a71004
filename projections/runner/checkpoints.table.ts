/// How far each projector group has applied the log. Updated in the same transaction as the rows.

import type { Kysely } from 'kysely'

export type CheckpointsTable = {
  name: string
  tx: string
  seq: string
}

export const checkpointsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('tessera_checkpoints')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('tx', 'bigint', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .execute()
  },
}
