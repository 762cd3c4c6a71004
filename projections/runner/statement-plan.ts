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
/// event by event). So a replay's users inserted after a sign-in's `last_seen_at` still go as one
/// statement, where they went one by one, each after the update before it.

/** One deferred write: its text and parameters, what it writes and reads. */
export type Deferred = {
  sql: string
  parameters: readonly unknown[]
  /** The event of the batch it belongs to (its index). */
  event: number
  kind: 'insert' | 'change'
  table: string
  /** Tables it reads (an UPDATE or DELETE reads its own). */
  reads: ReadonlySet<string>
  /** Inserts with one key merge into one statement: `head` + the rows' tuples, comma-separated + `tail`. */
  merge: { key: string; head: string; row: string; tail: string } | null
  /** A DELETE by keys alone: `head` (up to `where`), the key columns, each one's parameter index. */
  keyed: { key: string; head: string; columns: readonly string[]; indexes: readonly number[] } | null
  /** An UPDATE reading only its table: the columns its WHERE sets equal to a parameter, each one's index. */
  updateKey: { columns: readonly string[]; indexes: readonly number[] } | null
  onConflict: boolean
}

/** Each table's unique keys (its columns, unquoted), from the database's unique indexes. */
export type UniqueKeys = ReadonlyMap<string, readonly (readonly string[])[]>

export type Statement = { sql: string; parameters: readonly unknown[] }

const name = String.raw`"?([A-Za-z_][\w]*)"?`
const INSERT = new RegExp(String.raw`^\s*insert\s+into\s+${name}\s*(\([^)]*\))\s*`, 'i')
/** A VALUES tuple of parameters only (each maybe cast): `values ($1, $2::text)`. */
const ROW = /(?<=\bvalues\s*)\(\s*\$\d+(?:::\w+)?(?:\s*,\s*\$\d+(?:::\w+)?)*\s*\)/i
const UPDATE = new RegExp(String.raw`^\s*update\s+${name}\s+set\b`, 'i')
const DELETE = new RegExp(String.raw`^\s*delete\s+from\s+${name}`, 'i')
const KEYED_DELETE = /^(\s*delete\s+from\s+"?[A-Za-z_]\w*"?\s+where\s+)(.*)$/is
const KEY_TERM = /^\s*("?[A-Za-z_]\w*"?)\s*=\s*\$(\d+)\s*$/
const READ_TABLE = new RegExp(String.raw`\b(?:from|join|using)\s+${name}`, 'gi')

const tablesRead = (text: string): Set<string> =>
  new Set([...text.matchAll(READ_TABLE)].map((m) => m[1] as string))

type Shape = Omit<Deferred, 'sql' | 'parameters' | 'event'>

/** Shapes by text: projections send a few dozen texts, each thousands of times in a replay. */
const shapes = new Map<string, Shape | null>()
const MAX_SHAPES = 1000

/** What a statement is for the plan, or null when it must run at once (a read, RETURNING, anything else). */
export const classify = (sql: string, parameters: readonly unknown[], event: number): Deferred | null => {
  let shape = shapes.get(sql)
  if (shape === undefined) {
    shape = shapeOf(sql)
    if (shapes.size < MAX_SHAPES) shapes.set(sql, shape)
  }
  return shape && { ...shape, sql, parameters, event }
}

const shapeOf = (sql: string): Shape | null => {
  if (/\breturning\b/i.test(sql) || /^\s*with\b/i.test(sql)) return null
  const insert = INSERT.exec(sql)
  if (insert) {
    const [matched, table] = insert as unknown as [string, string]
    const rest = sql.slice(matched.length)
    const onConflict = /\bon\s+conflict\b/i.test(rest)
    const reads = tablesRead(rest)
    const tuple = ROW.exec(sql)
    // One tuple holding every parameter: rows of that shape go as one VALUES list.
    const merge =
      tuple && !`${sql.slice(0, tuple.index)}${sql.slice(tuple.index + tuple[0].length)}`.includes('$')
        ? {
            key: `${sql.slice(0, tuple.index)}\u0000${sql.slice(tuple.index + tuple[0].length)}`,
            head: sql.slice(0, tuple.index),
            row: tuple[0],
            tail: sql.slice(tuple.index + tuple[0].length),
          }
        : null
    return { kind: 'insert', table, reads, merge, onConflict, keyed: null, updateKey: null }
  }
  const update = UPDATE.exec(sql)
  const change = update ?? DELETE.exec(sql)
  if (!change) return null
  const table = change[1] as string
  const reads = tablesRead(sql)
  reads.add(table)
  const updateKey = update && reads.size === 1 ? updateKeyOf(sql) : null
  return { kind: 'change', table, reads, merge: null, onConflict: false, keyed: keyedDelete(sql), updateKey }
}

/** The terms of `where` joined by AND outside parentheses. */
const topLevelTerms = (where: string): string[] => {
  const terms: string[] = []
  let depth = 0
  let start = 0
  for (const match of where.matchAll(/[()]|\band\b/gi)) {
    if (match[0] === '(') depth += 1
    else if (match[0] === ')') depth -= 1
    else if (depth === 0) {
      terms.push(where.slice(start, match.index))
      start = (match.index ?? 0) + match[0].length
    }
  }
  return [...terms, where.slice(start)]
}

/** `update t set … where "a" = $2 and (…)`: the columns set equal to a parameter. */
const updateKeyOf = (sql: string): Deferred['updateKey'] => {
  const wheres = [...sql.matchAll(/\bwhere\b/gi)]
  if (wheres.length !== 1 || /'/.test(sql)) return null
  const where = sql.slice((wheres[0]?.index ?? 0) + 'where'.length)
  const terms = topLevelTerms(where).flatMap((term) => {
    const match = KEY_TERM.exec(term)
    return match ? [{ column: (match[1] as string).replaceAll('"', ''), index: Number(match[2]) - 1 }] : []
  })
  return terms.length === 0
    ? null
    : { columns: terms.map((term) => term.column), indexes: terms.map((term) => term.index) }
}

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

/** `delete from t where "a" = $1 and "b" = $2`: its head and keys; null for any other DELETE. */
const keyedDelete = (sql: string): Deferred['keyed'] => {
  const parts = KEYED_DELETE.exec(sql)
  if (!parts) return null
  const [, head, where] = parts as unknown as [string, string, string]
  const terms = where.split(/\band\b/i).map((term) => KEY_TERM.exec(term))
  if (terms.some((term) => term === null)) return null
  const columns = terms.map((term) => (term as RegExpExecArray)[1] as string)
  const indexes = terms.map((term) => Number((term as RegExpExecArray)[2]) - 1)
  if (new Set(indexes).size !== indexes.length || new Set(columns).size !== columns.length) return null
  return { key: `delete\u0000${head}${columns.join(',')}`, head, columns, indexes }
}

type TableWaves = {
  /** Highest wave of a write, a read, an UPDATE/DELETE of the table; of its inserts by shape and ON CONFLICT. */
  write: number
  /** Highest wave of a write other than a keyed DELETE. */
  kept: number
  read: number
  change: number
  /** Highest wave of an UPDATE/DELETE other than a row's update (plain inserts go after it). */
  unkeyedChange: number
  /** Highest wave of a write other than a keyed DELETE or a row's update (a row's update goes after it). */
  base: number
  keyedDelete: number
  /** Rows' updates: the wave of each row's last, and the highest per unique key they name rows by. */
  rows: Map<string, number>
  rowKeysets: Map<string, number>
  insertByShape: Map<string, { wave: number; onConflict: boolean }>
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
    const fresh: TableWaves = {
      write: -1,
      kept: -1,
      read: -1,
      change: -1,
      unkeyedChange: -1,
      base: -1,
      keyedDelete: -1,
      rows: new Map(),
      rowKeysets: new Map(),
      insertByShape: new Map(),
    }
    tables.set(table, fresh)
    return fresh
  }
  const touched = (table: string, wave: number) =>
    eventTouched.set(table, Math.max(eventTouched.get(table) ?? -1, wave))
  // What the current event did to each table: its later inserts stay after it.
  let event = -1
  let eventTouched = new Map<string, number>()
  return writes.map((write, index) => {
    if (write.event !== event) [event, eventTouched] = [write.event, new Map()]
    const own = of(write.table)
    if (write.keyed) {
      // Reads only the rows it removes: after what put rows there or read the table, not after
      // another keyed delete.
      const wave = Math.max(own.kept, own.read) + 1
      own.write = Math.max(own.write, wave)
      own.change = Math.max(own.change, wave)
      own.unkeyedChange = Math.max(own.unkeyedChange, wave)
      own.keyedDelete = Math.max(own.keyedDelete, wave)
      touched(write.table, wave)
      return wave
    }
    const row = rowOf(write, uniqueKeys)
    if (row) {
      // Changes one row: after what put rows in the table, read it, deleted from it, changed this
      // row, or named rows by another key; beside the updates of other rows.
      let after = Math.max(own.base, own.read, own.keyedDelete, own.rows.get(row.row) ?? -1)
      for (const [keyset, wave] of own.rowKeysets) if (keyset !== row.keyset) after = Math.max(after, wave)
      const wave = after + 1
      own.rows.set(row.row, wave)
      own.rowKeysets.set(row.keyset, Math.max(own.rowKeysets.get(row.keyset) ?? -1, wave))
      own.write = Math.max(own.write, wave)
      own.kept = Math.max(own.kept, wave)
      own.change = Math.max(own.change, wave)
      touched(write.table, wave)
      return wave
    }
    let after = Math.max(-1, ...[...write.reads].map((table) => of(table).write))
    if (write.kind === 'change') after = Math.max(after, own.write, own.read)
    else {
      const changes = write.onConflict ? own.change : own.unkeyedChange
      after = Math.max(after, changes, eventTouched.get(write.table) ?? -1)
      const shape = write.merge?.key ?? `#${index}`
      for (const [other, { wave, onConflict }] of own.insertByShape)
        if (other !== shape && (onConflict || write.onConflict)) after = Math.max(after, wave)
    }
    const wave = after + 1
    own.write = Math.max(own.write, wave)
    own.kept = Math.max(own.kept, wave)
    own.base = Math.max(own.base, wave)
    if (write.kind === 'change') {
      own.change = Math.max(own.change, wave)
      own.unkeyedChange = Math.max(own.unkeyedChange, wave)
    } else {
      const shape = write.merge?.key ?? `#${index}`
      const known = own.insertByShape.get(shape)
      own.insertByShape.set(shape, { wave: Math.max(wave, known?.wave ?? -1), onConflict: write.onConflict })
    }
    for (const table of write.reads) {
      of(table).read = Math.max(of(table).read, wave)
      touched(table, wave)
    }
    touched(write.table, wave)
    return wave
  })
}

/** Parameters per merged statement at most (PostgreSQL takes 65,535). */
const MAX_PARAMETERS = 30_000

/** The statements to run, in order: wave by wave, each wave's inserts of one shape merged. */
export const planStatements = (writes: readonly Deferred[], uniqueKeys?: UniqueKeys): Statement[] => {
  const waves = wavesOf(writes, uniqueKeys)
  const groups = new Map<string, Deferred[]>()
  writes.forEach((write, index) => {
    const key = `${waves[index]}\u0000${write.merge?.key ?? write.keyed?.key ?? `#${index}`}`
    const group = groups.get(key)
    if (group) group.push(write)
    else groups.set(key, [write])
  })
  const ordered = [...groups.entries()].sort(
    ([a], [b]) => Number(a.split('\u0000', 1)[0]) - Number(b.split('\u0000', 1)[0]),
  )
  return ordered.flatMap(([, group]) => mergeGroup(group))
}

const mergeGroup = (group: readonly Deferred[]): Statement[] => {
  const first = group[0] as Deferred
  if (group.length > 1 && first.keyed) return mergeDeletes(group, first.keyed)
  if (group.length === 1 || !first.merge) return group.map(({ sql, parameters }) => ({ sql, parameters }))
  const statements: Statement[] = []
  for (let start = 0; start < group.length; ) {
    const rows: string[] = []
    const parameters: unknown[] = []
    let end = start
    for (; end < group.length; end++) {
      const write = group[end] as Deferred
      if (rows.length > 0 && parameters.length + write.parameters.length > MAX_PARAMETERS) break
      const offset = parameters.length
      rows.push(
        (write.merge as NonNullable<Deferred['merge']>).row.replace(
          /\$(\d+)/g,
          (_, n) => `$${Number(n) + offset}`,
        ),
      )
      parameters.push(...write.parameters)
    }
    const { head, tail } = first.merge
    statements.push({ sql: `${head}${rows.join(', ')}${tail}`, parameters })
    start = end
  }
  return statements
}

/** Keyed deletes of one shape as one: `where "a" in ($1, $2)`, or `where ("a", "b") in (($1, $2), …)`. */
const mergeDeletes = (group: readonly Deferred[], keyed: NonNullable<Deferred['keyed']>): Statement[] => {
  const width = keyed.columns.length
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / width))
  const statements: Statement[] = []
  for (let start = 0; start < group.length; start += perStatement) {
    const rows = group.slice(start, start + perStatement)
    const parameters = rows.flatMap((write) => keyed.indexes.map((index) => write.parameters[index]))
    const tuples = rows.map((_, row) => {
      const places = keyed.columns.map((_, column) => `$${row * width + column + 1}`)
      return width === 1 ? places[0] : `(${places.join(', ')})`
    })
    const target = width === 1 ? keyed.columns[0] : `(${keyed.columns.join(', ')})`
    statements.push({ sql: `${keyed.head}${target} in (${tuples.join(', ')})`, parameters })
  }
  return statements
}
