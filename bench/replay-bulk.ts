/// The replay bench's fast writer: copies of the pattern (replay-log.ts) written as event rows in
/// bulk, a few thousand events per statement, instead of through the append path (whose one
/// statement per append, with a CTE per stream, wrote only a few hundred events a second). What the
/// rows hold is what the append path would have written: each copy's personal fields sealed under
/// a data key of its own (created here, wrapped under AUTH_SECRET as the keyring wraps it), each
/// event stamped with its type's version, the streams' versions counted. The inline hooks are not
/// run: what they write (pending revocations, key usage) is operational, and a replay neither reads
/// nor rebuilds it.

import { randomUUID } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import { stampEventVersion } from '../domain/events.js'
import { generateDataKey, secretId, wrapBytes } from '../infra/crypto/data-keys.js'
import type { EventToAppend } from '../infra/event-store/event-store.js'
import { sealEvent, subjectToSeal } from '../infra/event-store/personal-data/event-cipher.js'
import { type Template, varied, vary } from './replay-log.js'

/** Events per statement (and transaction): some megabytes of JSON. */
const EVENTS_PER_WRITE = 5_000

type Row = { id: string; stream: string; version: number; type: string; data: object; metadata: object }
type Chunk = { rows: Row[]; keys: Map<string, Buffer> }

export type BulkOptions = {
  /** Events to write at least (whole copies of the pattern). */
  events: number
  /** The number of the first copy: a later generation on the same log goes on where one stopped. */
  firstCopy: number
  /** AUTH_SECRET: the data keys are wrapped under it. */
  secret: string
  progress?: (written: number) => void
}

/** The pattern's events in the log's order, each with its stream. */
const flatten = (template: Template) =>
  template.segments.flatMap((segment) =>
    segment.flatMap((part) => part.events.map((event) => ({ stream: part.stream, event }))),
  )

/** One copy's rows appended to `chunk`: a new person, their personal data sealed under their own key. */
const addCopy = (chunk: Chunk, pattern: ReturnType<typeof flatten>, copy: number) => {
  const versions = new Map<string, number>()
  for (const { stream, event } of pattern) {
    const name = vary(stream, copy)
    const version = (versions.get(name) ?? 0) + 1
    versions.set(name, version)
    const plain = stampEventVersion({
      ...event,
      id: randomUUID(),
      data: varied(event.data, copy) as object,
      metadata: varied(event.metadata, copy),
    } as EventToAppend)
    const subject = subjectToSeal(plain)
    let sealed = plain
    if (subject !== null) {
      let key = chunk.keys.get(subject)
      if (!key) {
        key = generateDataKey()
        chunk.keys.set(subject, key)
      }
      sealed = sealEvent(plain, key)
    }
    chunk.rows.push({ ...sealed, stream: name, version })
  }
}

/** One chunk in one transaction: the keys, the streams, the events (in order, so `seq` follows it). */
const writeChunk = async (db: Kysely<unknown>, chunk: Chunk, secret: string) => {
  const subjects = [...chunk.keys.keys()]
  const wrapped = subjects.map((subject) => wrapBytes(secret, chunk.keys.get(subject) as Buffer, subject))
  const streams = new Map<string, number>()
  for (const row of chunk.rows) streams.set(row.stream, row.version)
  await db.transaction().execute(async (trx) => {
    if (subjects.length > 0)
      await sql`
        insert into tessera_data_keys (subject, wrapped_key, wrapped_by)
        select subject, wrapped, ${secretId(secret)}::text
        from unnest(${subjects}::text[], ${wrapped}::text[]) as k(subject, wrapped)`.execute(trx)
    await sql`
      insert into tessera_streams (stream_id, version)
      select * from unnest(${[...streams.keys()]}::text[], ${[...streams.values()]}::int[])`.execute(trx)
    await sql`
      insert into tessera_events (event_id, stream_id, stream_version, type, data, metadata)
      select (e->>'id')::uuid, e->>'stream', (e->>'version')::integer, e->>'type', e->'data', e->'metadata'
      from jsonb_array_elements(${JSON.stringify(chunk.rows)}::jsonb) with ordinality as r(e, n)
      order by n`.execute(trx)
  })
}

/** Writes copies until `events` are written; the number of the next copy. */
export const bulkGenerateLog = async (db: Kysely<unknown>, template: Template, options: BulkOptions) => {
  const pattern = flatten(template)
  const copies = Math.ceil(options.events / template.events)
  const end = options.firstCopy + copies
  const perChunk = Math.max(1, Math.floor(EVENTS_PER_WRITE / template.events))
  for (let first = options.firstCopy; first < end; first += perChunk) {
    const last = Math.min(end, first + perChunk)
    const chunk: Chunk = { rows: [], keys: new Map() }
    for (let copy = first; copy < last; copy++) addCopy(chunk, pattern, copy)
    await writeChunk(db, chunk, options.secret)
    options.progress?.((last - options.firstCopy) * template.events)
  }
  return { nextCopy: end, written: copies * template.events }
}
