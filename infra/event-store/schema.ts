/// Tables of the SQL event store (PostgreSQL and PGlite share them).

import { type Kysely, sql } from 'kysely'

export const eventStoreMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    // `tx_id` is the writing transaction's id. Readers order by (tx_id, seq) and only read below the
    // oldest running transaction, so an event whose transaction commits late is never skipped.
    await sql`
      create table tessera_events (
        seq bigint generated always as identity primary key,
        tx_id xid8 not null default pg_current_xact_id(),
        event_id uuid not null unique,
        stream_id text not null,
        stream_version integer not null,
        type text not null,
        data jsonb not null,
        metadata jsonb not null,
        recorded_at timestamptz not null default now(),
        unique (stream_id, stream_version)
      )`.execute(db)
    await sql`create index tessera_events_global_order on tessera_events (tx_id, seq)`.execute(db)
    await sql`create table tessera_streams (stream_id text primary key, version integer not null)`.execute(db)
    await sql`
      create table tessera_unique_claims (
        scope text not null,
        value text not null,
        owner text not null,
        primary key (scope, value)
      )`.execute(db)
  },
}

/**
 * What an append's one statement calls to refuse itself (sql-event-store.ts): a stream not at its
 * expected version, or a claim another owner holds. Raising undoes every write of the statement, so
 * an append of several streams and claims needs no transaction around it. Strict: a null reason
 * (nothing to refuse) is never even called.
 */
export const appendRefusalMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await sql`
      create function tessera_refuse_append(reason text) returns integer language plpgsql strict as $$
      begin
        raise exception using errcode = 'TSAR1', message = reason;
      end $$`.execute(db)
  },
}
