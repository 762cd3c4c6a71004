/// The table of per-subject data keys. A row exists while the subject's personal data may be read;
/// deleting it is what erases that data from the event log (crypto-shredding).

import { type Kysely, sql } from 'kysely'

export const dataKeysMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    // `wrapped_key` is the data key encrypted under a key derived from AUTH_SECRET, never the key itself.
    await sql`
      create table tessera_data_keys (
        subject text primary key,
        wrapped_key text not null,
        created_at timestamptz not null default now()
      )`.execute(db)
  },
}
