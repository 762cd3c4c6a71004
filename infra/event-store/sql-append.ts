/// The SQL event store's append: every part of an append, and its claims, in one statement that
/// refuses itself (`tessera_refuse_append`, schema.ts) when a stream is not at its expected version
/// or a claim is held by another owner, and the error the port gives for each refusal.

import { type Kysely, sql } from 'kysely'
import {
  type AppendOptions,
  type AppendResult,
  ConcurrencyError,
  type StreamAppend,
  type UniqueClaim,
  UniqueClaimConflictError,
} from './event-store.js'

/** The channel commits are announced on (PostgreSQL NOTIFY), with the committing store's id. */
export const NOTIFY_CHANNEL = 'tessera_events'

// biome-ignore lint/suspicious/noExplicitAny: the store reads and writes its own tables only
type Db = Kysely<any>

/** The SQLSTATE of `tessera_refuse_append` (schema.ts): the append's statement refused itself. */
const APPEND_REFUSED = 'TSAR1'

/** Which part or claim made the statement refuse itself (`tessera_refuse_append`'s reason). */
type Refusal = { kind: 'part' | 'claim'; index: number }

/** A statement that wrote nothing because nothing moved: refused without having to raise. */
class NothingMoved extends Error {
  constructor(readonly refusal: Refusal) {
    super(`${refusal.kind} ${refusal.index} did not move`)
  }
}

export const refusalOf = (error: unknown): Refusal | null => {
  if (error instanceof NothingMoved) return error.refusal
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== APPEND_REFUSED)
    return null
  const match = /^(part|claim) (\d+)$/.exec(String((error as { message?: unknown }).message))
  return match ? { kind: match[1] as Refusal['kind'], index: Number(match[2]) } : null
}

/** The claims an append takes in its statement, and whether that is all of them. */
export const claimsOf = (parts: readonly StreamAppend[]) => {
  const all = parts.flatMap((part, index) =>
    (part.options.uniqueClaims ?? []).map((claim) => ({ claim, index })),
  )
  // A statement does not see its own writes: a release and a take of one value (or two takes of
  // it) go one by one, in their order, after the statement, in its transaction.
  const inStatement =
    all.every(({ claim }) => claim.op === 'claim') &&
    new Set(all.map(({ claim }) => `${claim.scope}\u0000${claim.value}`)).size === all.length
  return { all, inStatement, taken: inStatement ? all : [] }
}

/**
 * Appends every part in one statement (one round trip, however many parts and events) and takes
 * the parts' claims in it too; outside a transaction it is one of its own. A part whose stream is
 * not at its expected version, or a claim another owner holds, makes the statement raise
 * (`tessera_refuse_append`), which undoes all it wrote; `appendAll` tells the caller why.
 */
export const appendParts = async (
  q: Db,
  parts: readonly StreamAppend[],
  { locks, storeId }: { locks: readonly string[]; storeId: string },
): Promise<AppendResult[]> => {
  const streams = parts.map((part) => part.stream)
  // Two updates of one stream's row in one statement would see the same version.
  if (new Set(streams).size !== streams.length) throw new Error('an append names a stream twice')
  const { all, inStatement, taken } = claimsOf(parts)

  // The statement's steps, each taking its rows from the one before:
  // - the streams' advisory locks (`locks`: the transaction's first statement takes them all, in
  //   the order of their hashes), before any write: the transaction gets its id at its first write,
  //   so under the lock transaction ids grow with the stream's versions (PGlite, one backend that
  //   lends its one connection to one transaction at a time, needs no lock);
  // - each stream's version moved by the number of its events, if it is the expected one. The
  //   statement's snapshot may predate the commit of the append that held the lock before; INSERT
  //   ... ON CONFLICT and UPDATE still judge the latest committed row. The notification, naming
  //   this store, is sent at commit to the listeners of other processes;
  // - the events of the streams that moved, numbered from their versions, in the parts' order;
  // - the claims of the streams that moved (a concurrent claim of the same value waits for the
  //   first to commit, then sees it);
  // - the verdict, with each row of the answer: a part that did not move or a claim not taken
  //   raises. Any write gives the answer a row, so a statement that wrote anything was judged.
  const locked =
    locks.length === 0
      ? sql`select 1`
      : locks.length === 1
        ? sql`select pg_advisory_xact_lock(hashtextextended(${locks[0]}, 0))`
        : sql`select count(pg_advisory_xact_lock(h)) from (
                select hashtextextended(s, 0) as h from unnest(${[...locks]}::text[]) s order by h) ordered`
  const movedName = (index: number) => sql.raw(`moved_${index}`)
  const claimedName = (k: number) => sql.raw(`claimed_${k}`)
  const moved = parts.map(({ stream, events, options: { expectedVersion } }, index) => {
    const n = events.length
    // Once per transaction is enough: PostgreSQL folds equal notifications of one transaction.
    const notified = index === 0 ? sql`, pg_notify(${NOTIFY_CHANNEL}, ${storeId})::text as notified` : sql``
    const step =
      expectedVersion === 'any'
        ? sql`insert into tessera_streams (stream_id, version) select ${stream}, ${n} from locked
              on conflict (stream_id) do update set version = tessera_streams.version + ${n}
              returning version${notified}`
        : expectedVersion === 'no_stream'
          ? // A stream exists only with events, so its row is there once it has any.
            sql`insert into tessera_streams (stream_id, version) select ${stream}, ${n} from locked
              on conflict (stream_id) do nothing
              returning version${notified}`
          : sql`update tessera_streams set version = version + ${n} from locked
              where stream_id = ${stream} and version = ${expectedVersion}
              returning version${notified}`
    return sql`${movedName(index)} as (${step})`
  })
  const numbered = parts.map(({ stream, events }, index) => {
    const appended = JSON.stringify(
      events.map((event) => ({ id: event.id, type: event.type, data: event.data, metadata: event.metadata })),
    )
    return sql`select ${index}::integer as part, e.n, ${stream}::text as stream_id,
                      m.version - ${events.length}::integer + e.n::integer as stream_version, e.event
               from ${movedName(index)} m, jsonb_array_elements(${appended}::jsonb) with ordinality as e(event, n)`
  })
  const claimed = taken.map(
    ({ claim, index }, k) => sql`, ${claimedName(k)} as (
      insert into tessera_unique_claims (scope, value, owner)
      select ${claim.scope}::text, ${claim.value}::text, ${claim.owner}::text from ${movedName(index)}
      on conflict (scope, value) do update set owner = excluded.owner
        where tessera_unique_claims.owner = excluded.owner
      returning owner)`,
  )
  const checks = [
    ...parts.map(
      (_, index) => sql`when not exists (select from ${movedName(index)}) then ${`part ${index}`}`,
    ),
    ...taken.map((_, k) => sql`when not exists (select from ${claimedName(k)}) then ${`claim ${k}`}`),
  ]
  const versions = parts.map(
    ({ stream }, index) => sql`select ${stream}::text as stream_id, version from ${movedName(index)}`,
  )
  const { rows } = await sql<{ stream_id: string; version: number; seq: string; tx_id: string }>`
    with locked as (${locked}),
    ${sql.join(moved)},
    inserted as (
      insert into tessera_events (event_id, stream_id, stream_version, type, data, metadata)
      select (e.event->>'id')::uuid, e.stream_id, e.stream_version, e.event->>'type', e.event->'data', e.event->'metadata'
      from (${sql.join(numbered, sql` union all `)}) e
      order by e.part, e.n
      returning stream_id, seq, tx_id)${sql.join(claimed, sql``)},
    verdict as (
      select coalesce(tessera_refuse_append(case ${sql.join(checks, sql` `)} end), 0) as refused)
    select m.stream_id, m.version, last.seq::text as seq, last.tx_id::text as tx_id, verdict.refused
    from (${sql.join(versions, sql` union all `)}) m
    cross join lateral (
      select seq, tx_id from inserted where inserted.stream_id = m.stream_id order by seq desc limit 1) last
    cross join verdict`.execute(q)

  // No row: nothing moved, so nothing was written (the verdict only runs with a row).
  if (rows.length < parts.length) {
    const index = parts.findIndex(({ stream }) => !rows.some((row) => row.stream_id === stream))
    throw new NothingMoved({ kind: 'part', index })
  }
  if (!inStatement) for (const { claim } of all) await applyClaim(q, claim)
  return parts.map(({ stream }) => {
    const row = rows.find((candidate) => candidate.stream_id === stream) as (typeof rows)[number]
    return { nextVersion: row.version, position: { tx: BigInt(row.tx_id), seq: BigInt(row.seq) } }
  })
}

/** Why the append was refused, as the port says it: the stream's actual version, or the claim. */
export const refusedAppend = async (
  db: Db,
  parts: readonly StreamAppend[],
  refusal: Refusal,
): Promise<Error> => {
  if (refusal.kind === 'claim') {
    const { claim } = claimsOf(parts).taken[refusal.index] as { claim: UniqueClaim }
    return new UniqueClaimConflictError(claim.scope, claim.value)
  }
  const { stream, options } = parts[refusal.index] as StreamAppend
  return concurrencyError(db, stream, options.expectedVersion)
}

/** The stream was not at the expected version: says where it is (for the message only). */
const concurrencyError = async (
  q: Db,
  stream: string,
  expectedVersion: AppendOptions['expectedVersion'],
): Promise<ConcurrencyError> => {
  const { rows } = await sql<{ version: number }>`
    select version from tessera_streams where stream_id = ${stream}`.execute(q)
  return new ConcurrencyError(stream, expectedVersion, rows[0]?.version ?? 'no_stream')
}

const applyClaim = async (trx: Db, claim: UniqueClaim): Promise<void> => {
  if (claim.op === 'release') {
    await sql`
      delete from tessera_unique_claims
      where scope = ${claim.scope} and value = ${claim.value} and owner = ${claim.owner}`.execute(trx)
    return
  }
  // A concurrent claim of the same value waits here for the first to commit, then sees it.
  const { rows } = await sql<{ owner: string }>`
    insert into tessera_unique_claims (scope, value, owner) values (${claim.scope}, ${claim.value}, ${claim.owner})
    on conflict (scope, value) do update set owner = excluded.owner
      where tessera_unique_claims.owner = excluded.owner
    returning owner`.execute(trx)
  if (rows.length === 0) throw new UniqueClaimConflictError(claim.scope, claim.value)
}
