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

/**
 * Rotation and tombstones. `wrapped_by` names (secretId) the secret a key is wrapped under, so a
 * rotation finds what is left to re-wrap; `wrapped_key` null is a tombstone: the subject was erased
 * and must never get a fresh key. Subjects whose deletion is already in the log but whose key
 * survived (a crash between the deletion and the key's destruction, before erasure became one
 * transaction) are erased here.
 */
export const dataKeyRotationMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await sql`alter table tessera_data_keys alter column wrapped_key drop not null`.execute(db)
    await sql`alter table tessera_data_keys add column wrapped_by text`.execute(db)
    await sql`alter table tessera_data_keys add column erased_at timestamptz`.execute(db)
    await sql`
      insert into tessera_data_keys (subject, wrapped_key, erased_at)
      select distinct data->>'userId', null::text, now() from tessera_events
      where type = 'user.deleted' and data->>'userId' is not null
      on conflict (subject) do update set wrapped_key = null, wrapped_by = null, erased_at = excluded.erased_at`.execute(
      db,
    )
  },
}
