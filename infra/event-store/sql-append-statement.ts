/// The text and values of an append's one statement (sql-append.ts runs it), written out directly:
/// Kysely's `sql` tag built, froze and compiled the same two kilobytes of text for every append, a
/// statement of some twenty values (issue 33: an append a second step, 2-3% of its Node CPU). Each
/// value is a `$n` parameter, in the order it is pushed, as the tag made them; names of the steps
/// (`moved_0`, `claimed_0`) are written into the text, as `sql.raw` wrote them.

import type { StreamAppend, UniqueClaim } from './event-store.js'

/** The channel commits are announced on (PostgreSQL NOTIFY), with the committing store's id. */
export const NOTIFY_CHANNEL = 'tessera_events'

/** A claim the statement takes, and the part whose stream must move for it to be taken. */
export type TakenClaim = { claim: UniqueClaim; index: number }

export type AppendStatement = { text: string; values: unknown[] }

/**
 * The statement's steps, each taking its rows from the one before:
 * - the streams' advisory locks (`locks`: the transaction's first statement takes them all, in the
 *   order of their hashes), before any write: the transaction gets its id at its first write, so
 *   under the lock transaction ids grow with the stream's versions (PGlite, one backend that lends
 *   its one connection to one transaction at a time, needs no lock);
 * - each stream's version moved by the number of its events, if it is the expected one. The
 *   statement's snapshot may predate the commit of the append that held the lock before; INSERT ...
 *   ON CONFLICT and UPDATE still judge the latest committed row. The notification, naming this
 *   store, is sent at commit to the listeners of other processes;
 * - the events of the streams that moved, numbered from their versions, in the parts' order;
 * - the claims of the streams that moved (a concurrent claim of the same value waits for the first
 *   to commit, then sees it);
 * - the verdict, with each row of the answer: a part that did not move or a claim not taken raises.
 *   Any write gives the answer a row, so a statement that wrote anything was judged.
 */
export const appendStatement = (
  parts: readonly StreamAppend[],
  taken: readonly TakenClaim[],
  { locks, storeId }: { locks: readonly string[]; storeId: string },
): AppendStatement => {
  const values: unknown[] = []
  const $ = (value: unknown) => `$${values.push(value)}`

  const locked =
    locks.length === 0
      ? 'select 1'
      : locks.length === 1
        ? `select pg_advisory_xact_lock(hashtextextended(${$(locks[0])}, 0))`
        : `select count(pg_advisory_xact_lock(h)) from (
                select hashtextextended(s, 0) as h from unnest(${$([...locks])}::text[]) s order by h) ordered`
  const moved = parts.map(({ stream, events, options: { expectedVersion } }, index) => {
    const n = events.length
    // Once per transaction is enough: PostgreSQL folds equal notifications of one transaction.
    // Made where it stands in the text, so that the parameters are numbered in the text's order.
    const notified = () =>
      index === 0 ? `, pg_notify(${$(NOTIFY_CHANNEL)}, ${$(storeId)})::text as notified` : ''
    const step =
      expectedVersion === 'any'
        ? `insert into tessera_streams (stream_id, version) select ${$(stream)}, ${$(n)} from locked
              on conflict (stream_id) do update set version = tessera_streams.version + ${$(n)}
              returning version${notified()}`
        : expectedVersion === 'no_stream'
          ? // A stream exists only with events, so its row is there once it has any.
            `insert into tessera_streams (stream_id, version) select ${$(stream)}, ${$(n)} from locked
              on conflict (stream_id) do nothing
              returning version${notified()}`
          : `update tessera_streams set version = version + ${$(n)} from locked
              where stream_id = ${$(stream)} and version = ${$(expectedVersion)}
              returning version${notified()}`
    return `moved_${index} as (${step})`
  })
  const numbered = parts.map(({ stream, events }, index) => {
    const appended = JSON.stringify(
      events.map((event) => ({ id: event.id, type: event.type, data: event.data, metadata: event.metadata })),
    )
    return `select ${$(index)}::integer as part, e.n, ${$(stream)}::text as stream_id,
                      m.version - ${$(events.length)}::integer + e.n::integer as stream_version, e.event
               from moved_${index} m, jsonb_array_elements(${$(appended)}::jsonb) with ordinality as e(event, n)`
  })
  const claimed = taken.map(
    ({ claim, index }, k) => `, claimed_${k} as (
      insert into tessera_unique_claims (scope, value, owner)
      select ${$(claim.scope)}::text, ${$(claim.value)}::text, ${$(claim.owner)}::text from moved_${index}
      on conflict (scope, value) do update set owner = excluded.owner
        where tessera_unique_claims.owner = excluded.owner
      returning owner)`,
  )
  const checks = [
    ...parts.map((_, index) => `when not exists (select from moved_${index}) then ${$(`part ${index}`)}`),
    ...taken.map((_, k) => `when not exists (select from claimed_${k}) then ${$(`claim ${k}`)}`),
  ]
  const versions = parts.map(
    ({ stream }, index) => `select ${$(stream)}::text as stream_id, version from moved_${index}`,
  )
  const text = `
    with locked as (${locked}),
    ${moved.join(', ')},
    inserted as (
      insert into tessera_events (event_id, stream_id, stream_version, type, data, metadata)
      select (e.event->>'id')::uuid, e.stream_id, e.stream_version, e.event->>'type', e.event->'data', e.event->'metadata'
      from (${numbered.join(' union all ')}) e
      order by e.part, e.n
      returning stream_id, seq, tx_id)${claimed.join('')},
    verdict as (
      select coalesce(tessera_refuse_append(case ${checks.join(' ')} end), 0) as refused)
    select m.stream_id, m.version, last.seq::text as seq, last.tx_id::text as tx_id, verdict.refused
    from (${versions.join(' union all ')}) m
    cross join lateral (
      select seq, tx_id from inserted where inserted.stream_id = m.stream_id order by seq desc limit 1) last
    cross join verdict`
  return { text, values }
}
