/// `tessera export` / `tessera import`: the whole state that cannot be rebuilt, as NDJSON, one
/// record a line. What a replay rebuilds (the read models) is left out; what it cannot is kept:
/// the log (personal data still sealed), the data keys (still wrapped under AUTH_SECRET), the unique
/// claims (still hashed), how far each reactor got (so no mail goes out twice) and the events an
/// operator chose to skip. Positions are re-based on import (see infra/event-store/log-transfer.ts).
///
/// Lines: a header, then data keys, claims, checkpoints, skips and events (in the old global order),
/// then an `end` line with the counts, so a cut-off file is refused rather than half imported.

import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { type Kysely, sql } from 'kysely'
import {
  comparePositions,
  formatPosition,
  type GlobalPosition,
  parsePosition,
  START,
} from '../../infra/event-store/event-store.js'
import {
  insertClaim,
  insertDataKey,
  insertStoredEvents,
  readClaims,
  readDataKeys,
  readStoredEvents,
  rebuildStreamVersions,
  type StoredClaim,
  type StoredDataKey,
  type StoredEvent,
  storeIsEmpty,
} from '../../infra/event-store/log-transfer.js'
import { createKeyring } from '../../infra/event-store/personal-data/keyring.js'
import type { Database } from '../../projections/database.js'

export const ARCHIVE_FORMAT = 1
/** The projector group whose tables a replay rebuilds: its checkpoint starts over, never carried. */
const READ_MODELS_GROUP = 'read-models'
const EVENTS_PER_INSERT = 500

type Checkpoint = { name: string; position: string }
type Skip = { name: string; eventId: string; eventType: string; skippedAt: string }
type Counts = { dataKeys: number; claims: number; checkpoints: number; skips: number; events: number }

type ArchiveLine =
  | { record: 'header'; format: number; exportedAt: string }
  | ({ record: 'data-key' } & StoredDataKey)
  | ({ record: 'claim' } & StoredClaim)
  | ({ record: 'checkpoint' } & Checkpoint)
  | ({ record: 'skip' } & Skip)
  | ({ record: 'event' } & Omit<StoredEvent, 'position'> & { position: string })
  | ({ record: 'end' } & Counts)

const emptyCounts = (): Counts => ({ dataKeys: 0, claims: 0, checkpoints: 0, skips: 0, events: 0 })

// biome-ignore lint/suspicious/noExplicitAny: the export reads tables of every layer, raw
type AnyDb = Kysely<any>

/**
 * Writes the archive through `write` (which should wait for the sink to drain). One repeatable-read
 * transaction: keys, claims and events come from the same instant, and writers are not blocked.
 */
export const exportArchive = (
  db: Kysely<Database>,
  write: (line: string) => Promise<void>,
  now: () => Date = () => new Date(),
): Promise<Counts> =>
  db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const counts = emptyCounts()
      const emit = (line: ArchiveLine) => write(`${JSON.stringify(line)}\n`)
      await emit({ record: 'header', format: ARCHIVE_FORMAT, exportedAt: now().toISOString() })
      for (const key of await readDataKeys(trx)) {
        await emit({ record: 'data-key', ...key })
        counts.dataKeys++
      }
      for (const claim of await readClaims(trx)) {
        await emit({ record: 'claim', ...claim })
        counts.claims++
      }
      const checkpoints = await trx
        .selectFrom('tessera_checkpoints')
        .selectAll()
        .where('name', '!=', READ_MODELS_GROUP)
        .orderBy('name')
        .execute()
      for (const row of checkpoints) {
        await emit({ record: 'checkpoint', name: row.name, position: `${row.tx}:${row.seq}` })
        counts.checkpoints++
      }
      for (const skip of await readSkips(trx)) {
        await emit({ record: 'skip', ...skip })
        counts.skips++
      }
      for await (const event of readStoredEvents(trx)) {
        await emit({ record: 'event', ...event, position: formatPosition(event.position) })
        counts.events++
      }
      await emit({ record: 'end', ...counts })
      return counts
    })

const readSkips = async (db: AnyDb): Promise<Skip[]> =>
  (
    await db
      .selectFrom('tessera_projector_skips')
      .select(['name', 'event_id', 'event_type', 'skipped_at'])
      .orderBy('name')
      .orderBy('event_id')
      .execute()
  ).map((row: { name: string; event_id: string; event_type: string; skipped_at: Date }) => ({
    name: row.name,
    eventId: row.event_id,
    eventType: row.event_type,
    skippedAt: new Date(row.skipped_at).toISOString(),
  }))

export class ArchiveError extends Error {
  override readonly name = 'ArchiveError'
}

export type ImportResult = Counts & { lastPosition: GlobalPosition }

/**
 * Imports an archive into an empty, migrated store, all in one transaction: a failure (a cut-off
 * file, keys none of `secrets` can unwrap, a store that is not empty) leaves the store empty. The read
 * models are not touched: replay them afterwards (their checkpoint starts at the beginning).
 */
export const importArchive = async (
  db: Kysely<Database>,
  input: Readable,
  secrets: readonly string[],
): Promise<ImportResult> => {
  if (!(await storeIsEmpty(db)))
    throw new ArchiveError(
      'The target already holds events, data keys or claims: import only into an empty store.',
    )
  return db.transaction().execute(async (trx) => {
    const counts = emptyCounts()
    const checkpoints: { name: string; old: GlobalPosition; position: GlobalPosition }[] = []
    const skips: Skip[] = []
    let pending: StoredEvent[] = []
    let lastOld = START
    let lastPosition = START
    let header = false
    let end: Counts | null = null
    let checkedKeys = false

    /** Each checkpoint moves to the new position of the last event at or before its old one. */
    const flush = async () => {
      const positions = await insertStoredEvents(trx, pending)
      for (const [index, event] of pending.entries()) {
        const position = positions[index] ?? START
        for (const checkpoint of checkpoints)
          if (comparePositions(event.position, checkpoint.old) <= 0) checkpoint.position = position
        lastPosition = position
      }
      pending = []
    }
    // A wrong AUTH_SECRET would import fine and then fail every request: refuse it here instead.
    const checkKeys = async () => {
      checkedKeys = true
      const { rows } = await sql<{
        subject: string
      }>`select subject from tessera_data_keys where wrapped_key is not null limit 20`.execute(trx)
      await createKeyring(trx, secrets).existingKeys(rows.map((row) => row.subject))
    }

    let lineNumber = 0
    for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      lineNumber++
      if (text.trim() === '') continue
      if (end) throw new ArchiveError(`line ${lineNumber}: nothing may follow the end line`)
      const line = parseLine(text, lineNumber)
      if (!header) {
        if (line.record !== 'header' || line.format !== ARCHIVE_FORMAT)
          throw new ArchiveError(`line ${lineNumber}: not a Tessera export of format ${ARCHIVE_FORMAT}`)
        header = true
        continue
      }
      if (line.record !== 'data-key' && !checkedKeys) await checkKeys()
      switch (line.record) {
        case 'data-key':
          await insertDataKey(trx, {
            subject: line.subject,
            wrappedKey: line.wrappedKey ?? null,
            wrappedBy: line.wrappedBy ?? null,
            erasedAt: line.erasedAt ?? null,
            createdAt: line.createdAt,
          })
          counts.dataKeys++
          break
        case 'claim':
          await insertClaim(trx, line)
          counts.claims++
          break
        case 'checkpoint':
          checkpoints.push({ name: line.name, old: positionOf(line.position, lineNumber), position: START })
          counts.checkpoints++
          break
        case 'skip':
          skips.push(line)
          counts.skips++
          break
        case 'event': {
          const old = positionOf(line.position, lineNumber)
          if (comparePositions(old, lastOld) <= 0)
            throw new ArchiveError(`line ${lineNumber}: events are not in the log's order`)
          lastOld = old
          pending.push({ ...line, position: old })
          counts.events++
          if (pending.length >= EVENTS_PER_INSERT) await flush()
          break
        }
        case 'end':
          end = line
          break
        default:
          throw new ArchiveError(`line ${lineNumber}: unknown record`)
      }
    }
    if (!end) throw new ArchiveError('The export ends early (no end line): it was cut off.')
    for (const key of Object.keys(counts) as (keyof Counts)[])
      if (end[key] !== counts[key])
        throw new ArchiveError(`The end line counts ${end[key]} ${key}, the file holds ${counts[key]}.`)
    await flush()
    await rebuildStreamVersions(trx)
    for (const checkpoint of checkpoints)
      await trx
        .insertInto('tessera_checkpoints')
        .values({
          name: checkpoint.name,
          tx: checkpoint.position.tx.toString(),
          seq: checkpoint.position.seq.toString(),
        })
        .execute()
    await insertSkips(trx, skips)
    return { ...counts, lastPosition }
  })
}

/** A skip keeps its event (found by id) at that event's new position. */
const insertSkips = async (trx: AnyDb, skips: readonly Skip[]): Promise<void> => {
  for (const skip of skips)
    await sql`
      insert into tessera_projector_skips (name, event_id, tx, seq, event_type, skipped_at)
      select ${skip.name}, event_id::text, tx_id::text::bigint, seq, ${skip.eventType}, ${skip.skippedAt}::timestamptz
      from tessera_events where event_id = ${skip.eventId}::uuid`.execute(trx)
}

const positionOf = (text: string, lineNumber: number): GlobalPosition => {
  const position = parsePosition(text)
  if (!position) throw new ArchiveError(`line ${lineNumber}: "${text}" is not a position`)
  return position
}

const REQUIRED: Record<ArchiveLine['record'], readonly string[]> = {
  header: ['format'],
  'data-key': ['subject', 'createdAt'],
  claim: ['scope', 'value', 'owner'],
  checkpoint: ['name', 'position'],
  skip: ['name', 'eventId', 'eventType', 'skippedAt'],
  event: ['id', 'streamId', 'streamVersion', 'type', 'data', 'metadata', 'recordedAt', 'position'],
  end: ['dataKeys', 'claims', 'checkpoints', 'skips', 'events'],
}

const parseLine = (text: string, lineNumber: number): ArchiveLine => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ArchiveError(`line ${lineNumber}: not JSON`)
  }
  const record = value as Record<string, unknown> | null
  const fields =
    record && typeof record.record === 'string' ? REQUIRED[record.record as ArchiveLine['record']] : null
  if (!record || !fields) throw new ArchiveError(`line ${lineNumber}: unknown record`)
  const missing = fields.find((field) => record[field] === undefined || record[field] === null)
  if (missing) throw new ArchiveError(`line ${lineNumber}: ${record.record} without ${missing}`)
  return record as ArchiveLine
}
