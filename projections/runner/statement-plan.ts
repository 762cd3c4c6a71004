/// The writes of one batch of events, put in an order that needs few statements: the projector's
/// batched path (write-behind.ts) defers each projection's INSERT, UPDATE and DELETE, then runs them
/// here as a plan where the inserts of one shape into one table are one multi-row statement.
///
/// Statements move only where their effect cannot change, judged table by table (`conflicts`), with
/// one assumption about projections: a statement of an event touches rows of that event or of
/// earlier ones, found by their keys, never a row a later event inserts. So a later INSERT may go
/// ahead of an earlier statement that only reads its table, or that inserts other rows into it;
/// it never goes ahead of an UPDATE or DELETE of its table, of anything its own event did to that
/// table, or of a write to a table it reads (an INSERT ... SELECT).
///
/// A DELETE by keys alone (`where "a" = $1 and "b" = $2`) reads nothing but the rows it removes:
/// two of them commute, so keyed deletes of one table share a wave unless an insert, an update or
/// a reader of the table comes between them, and those of one shape go as one statement
/// (`where ("a", "b") in ((…), (…))`).
///
/// An UPDATE that names its one row by a unique key of its table (`where "id" = $1 and …`, the keys
/// given by the database: `uniqueKeys`) changes only that row, which by the assumption above is a
/// row of an earlier event or its own. Such updates of different rows commute, and a plain INSERT
/// (no ON CONFLICT, reading nothing it could change) of a later event may go ahead of them: were
/// it to insert that very row, it fails on the key in either order (and the batch is applied again
/// event by event). So a replay's users inserted after another user's update (a profile change) still go as
/// one statement, where they went one by one, each after the update before it. Likewise a plain INSERT
/// may go ahead of a keyed DELETE whose keys are a unique key of its table (one row, of an earlier
/// event; were it that very row, the insert fails on the key), so sign-outs do not chain sign-ups.
///
/// A row's update that sets plain columns (`set "a" = $1`, none of them a unique key's) changes
/// neither which rows exist nor any other column: a statement that reads its table without naming
/// those columns, and never reads it whole (`*`, the table or its alias as a value), sees the same
/// whichever goes first. So an activity entry that checks its user exists does not wait for an
/// update of the user's name, nor that update for the entry, and a batch's updates of one shape share a
/// wave (and go as one statement when they name their rows by keys alone: statement-merge.ts).
///
/// An INSERT … SELECT that reads its own table, and whose text vouches that it never reads a row
/// a statement of that same text inserts (READS_NONE_OF_ITS_SHAPE, statement-shape.ts), waits only
/// for the table's other writes: a replay's session revocations, each of which looks up its session's
/// sign-in entry in `activity`, share a wave and go as one statement instead of one wave each.

import { inlineGroup, mergeGroup, type Statement } from './statement-merge.js'
import type { Deferred } from './statement-shape.js'

export type { Statement } from './statement-merge.js'
export { classify, type Deferred, READS_NONE_OF_ITS_SHAPE } from './statement-shape.js'

/** Each table's unique keys (its columns, unquoted), from the database's unique indexes. */
export type UniqueKeys = ReadonlyMap<string, readonly (readonly string[])[]>

/** The unique key an UPDATE names its row by, and that row's key values; null when it names none. */
const rowOf = (
  write: Deferred,
  uniqueKeys: UniqueKeys | undefined,
): { keyset: string; row: string } | null => {
  const found = write.updateKey
  if (!found) return null
  const key = uniqueKeys?.get(write.table)?.find((columns) => columns.every((c) => found.columns.includes(c)))
  if (!key) return null
  const values = key.map((column) => write.parameters[found.indexes[found.columns.indexOf(column)] as number])
  return { keyset: key.join(','), row: JSON.stringify(values) }
}

type TableWaves = {
  /** Highest wave of a write, a read, an UPDATE/DELETE of the table; of its inserts by shape and ON CONFLICT. */
  write: number
  /** Highest wave of a write other than a row's update of plain columns (`columnSets`). */
  writeOther: number
  /** Highest wave of a write other than a keyed DELETE. */
  kept: number
  read: number
  /**
   * Highest wave of a read of the table whole, and of the other reads by the names they mention
   * (a shape's set of names, shared by its writes: one entry per shape, not one per name and write).
   */
  readWhole: number
  readByNames: Map<ReadonlySet<string>, number>
  change: number
  /** Highest wave of an UPDATE/DELETE other than a row's update or a delete of one row (plain inserts go after it). */
  unkeyedChange: number
  /** Highest wave of a write other than a keyed DELETE or a row's update (a row's update goes after it). */
  base: number
  keyedDelete: number
  /** Highest wave of a keyed DELETE whose keys are no unique key (it may remove many rows). */
  keyedDeleteOfMany: number
  /** Rows' updates: the wave of each row's last, and the highest per unique key they name rows by. */
  rows: Map<string, number>
  rowKeysets: Map<string, number>
  /** Rows' updates of plain columns: the highest wave that set each column. */
  columnSets: Map<string, number>
  insertByShape: Map<string, { wave: number; onConflict: boolean }>
}

const freshWaves = (): TableWaves => ({
  write: -1,
  writeOther: -1,
  kept: -1,
  read: -1,
  readWhole: -1,
  readByNames: new Map(),
  change: -1,
  unkeyedChange: -1,
  base: -1,
  keyedDelete: -1,
  keyedDeleteOfMany: -1,
  rows: new Map(),
  rowKeysets: new Map(),
  columnSets: new Map(),
  insertByShape: new Map(),
})

const max = (a: number, b: number | undefined) => (b === undefined || a >= b ? a : b)

/** The columns a row's update sets, when they are plain and no unique key's; else null. */
const plainSets = (write: Deferred, uniqueKeys: UniqueKeys | undefined): readonly string[] | null => {
  const sets = write.updateKey?.sets
  if (!sets) return null
  const keyColumns = new Set((uniqueKeys?.get(write.table) ?? []).flat())
  return sets.some((column) => keyColumns.has(column)) ? null : sets
}

/**
 * The last wave of a write of `table` that `reader` may see: row updates of columns it never names
 * pass, and so do the inserts of its own shape into its own table when it reads none of their rows.
 */
const writeSeenBy = (waves: TableWaves, table: string, reader: Deferred, shape: string): number => {
  if (reader.blindToOwnShape && table === reader.table) {
    let wave = waves.change
    for (const [other, inserted] of waves.insertByShape) if (other !== shape) wave = max(wave, inserted.wave)
    return wave
  }
  if (reader.wholeRows.has(table)) return waves.write
  let wave = waves.writeOther
  for (const [column, at] of waves.columnSets) if (reader.mentions.has(column)) wave = max(wave, at)
  return wave
}

/** The last wave of a read of the table that may see the columns `sets` (all when null). */
const readSeeing = (waves: TableWaves, sets: readonly string[] | null): number => {
  if (!sets) return waves.read
  let wave = waves.readWhole
  for (const [names, at] of waves.readByNames)
    if (at > wave && sets.some((column) => names.has(column))) wave = at
  return wave
}

/**
 * Each statement's wave: one past every earlier statement it conflicts with (the module's comment), kept per
 * table so that a batch of thousands of writes is planned in linear time).
 */
export const wavesOf = (writes: readonly Deferred[], uniqueKeys?: UniqueKeys): number[] => {
  const tables = new Map<string, TableWaves>()
  const of = (table: string): TableWaves => {
    const known = tables.get(table)
    if (known) return known
    const fresh = freshWaves()
    tables.set(table, fresh)
    return fresh
  }
  const touched = (table: string, wave: number) => eventTouched.set(table, max(wave, eventTouched.get(table)))
  // What the current event did to each table: its later inserts stay after it.
  let event = -1
  let eventTouched = new Map<string, number>()
  const wroteAt = (write: Deferred, own: TableWaves, wave: number, rowSets: readonly string[] | null) => {
    own.write = max(own.write, wave)
    if (rowSets)
      for (const column of rowSets) own.columnSets.set(column, max(wave, own.columnSets.get(column)))
    else own.writeOther = max(own.writeOther, wave)
    touched(write.table, wave)
    return wave
  }
  return writes.map((write, index) => {
    if (write.event !== event) [event, eventTouched] = [write.event, new Map()]
    const own = of(write.table)
    if (write.keyed) return wroteAt(write, own, keyedDeleteWave(write, own, uniqueKeys), null)
    const row = rowOf(write, uniqueKeys)
    if (row) {
      const sets = plainSets(write, uniqueKeys)
      return wroteAt(write, own, rowUpdateWave(own, row, sets), sets)
    }
    const wave = otherWave(write, index, own, of, eventTouched)
    for (const table of write.reads) {
      const read = of(table)
      read.read = max(read.read, wave)
      if (write.wholeRows.has(table)) read.readWhole = max(read.readWhole, wave)
      else read.readByNames.set(write.mentions, max(wave, read.readByNames.get(write.mentions)))
      touched(table, wave)
    }
    return wroteAt(write, own, wave, null)
  })
}

/** Reads only the rows it removes: after what put rows there or read the table, not after another keyed delete. */
const keyedDeleteWave = (write: Deferred, own: TableWaves, uniqueKeys: UniqueKeys | undefined) => {
  const wave = Math.max(own.kept, own.read) + 1
  const columns = write.keyed?.columns.map((column) => column.replaceAll('"', '')) ?? []
  const oneRow = uniqueKeys?.get(write.table)?.some((key) => key.every((c) => columns.includes(c)))
  own.change = max(own.change, wave)
  if (!oneRow) {
    own.unkeyedChange = max(own.unkeyedChange, wave)
    own.keyedDeleteOfMany = max(own.keyedDeleteOfMany, wave)
  }
  own.keyedDelete = max(own.keyedDelete, wave)
  return wave
}

/**
 * Changes one row: after what put rows in the table, read what it sets, deleted from it, changed
 * this row, or named rows by another key; beside the updates of other rows. An update of plain
 * columns and the delete of one row end the same in either order (the row gone, or changed when
 * it is another), so such an update does not wait for such deletes.
 */
const rowUpdateWave = (
  own: TableWaves,
  row: { keyset: string; row: string },
  sets: readonly string[] | null,
) => {
  const deleted = sets ? own.keyedDeleteOfMany : own.keyedDelete
  let after = Math.max(own.base, readSeeing(own, sets), deleted, own.rows.get(row.row) ?? -1)
  for (const [keyset, wave] of own.rowKeysets) if (keyset !== row.keyset) after = Math.max(after, wave)
  const wave = after + 1
  own.rows.set(row.row, wave)
  own.rowKeysets.set(row.keyset, max(wave, own.rowKeysets.get(row.keyset)))
  own.kept = Math.max(own.kept, wave)
  own.change = Math.max(own.change, wave)
  return wave
}

/** Any other insert or change: after the writes it may see, and, by its kind, what it may collide with. */
const otherWave = (
  write: Deferred,
  index: number,
  own: TableWaves,
  of: (table: string) => TableWaves,
  eventTouched: ReadonlyMap<string, number>,
) => {
  const shape = write.merge?.key ?? `#${index}`
  let after = Math.max(-1, ...[...write.reads].map((table) => writeSeenBy(of(table), table, write, shape)))
  if (write.kind === 'change') after = Math.max(after, own.write, own.read)
  else {
    const changes = write.onConflict ? own.change : own.unkeyedChange
    after = Math.max(after, changes, eventTouched.get(write.table) ?? -1)
    for (const [other, { wave, onConflict }] of own.insertByShape)
      if (other !== shape && (onConflict || write.onConflict)) after = Math.max(after, wave)
  }
  const wave = after + 1
  own.kept = Math.max(own.kept, wave)
  own.base = Math.max(own.base, wave)
  if (write.kind === 'change') {
    own.change = Math.max(own.change, wave)
    own.unkeyedChange = Math.max(own.unkeyedChange, wave)
  } else {
    const known = own.insertByShape.get(shape)
    own.insertByShape.set(shape, { wave: Math.max(wave, known?.wave ?? -1), onConflict: write.onConflict })
  }
  return wave
}

/**
 * The writes in the order to run them: wave by wave, each wave's writes of one shape together.
 * Keyed by the shape's own key (made once per statement text), not a key made per write: a
 * replay plans hundreds of thousands of writes.
 */
const planGroups = (writes: readonly Deferred[], uniqueKeys?: UniqueKeys): Deferred[][] => {
  const waves = wavesOf(writes, uniqueKeys)
  const byWave: Map<string | number, Deferred[]>[] = []
  writes.forEach((write, index) => {
    // An update's text holds no NUL, which every merge and keyed-delete key holds; a write alone is its index.
    const update = write.updateKey && rowOf(write, uniqueKeys) ? write.sql : null
    const key = write.merge?.key ?? write.keyed?.key ?? update ?? index
    const wave = waves[index] as number
    let groups = byWave[wave]
    if (!groups) {
      groups = new Map()
      byWave[wave] = groups
    }
    const group = groups.get(key)
    if (group) group.push(write)
    else groups.set(key, [write])
  })
  return byWave.flatMap((groups) => (groups ? [...groups.values()] : []))
}

/**
 * The statements to run, in order: wave by wave, each wave's writes of one shape merged (inserts
 * and keyed deletes).
 */
export const planStatements = (writes: readonly Deferred[], uniqueKeys?: UniqueKeys): Statement[] =>
  planGroups(writes, uniqueKeys).flatMap(mergeGroup)

/** `planStatements` with the values written in (for one text of many statements, write-behind.ts). */
export const planInlined = (writes: readonly Deferred[], uniqueKeys?: UniqueKeys): string[] =>
  planGroups(writes, uniqueKeys).flatMap(inlineGroup)
