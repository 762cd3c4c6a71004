/// What one deferred write is for the plan (statement-plan.ts): the table it writes, the tables and
/// columns it reads, and how it can merge with others of its shape. Found in the statement's text,
/// once per text: projections send a few dozen texts, each thousands of times in a replay.

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
  /**
   * The names its text mentions (unquoted, lower case), and the tables it may read as whole rows
   * (`*`, a table or alias used as a value): what tells whether a row's update can change what it reads.
   */
  mentions: ReadonlySet<string>
  wholeRows: ReadonlySet<string>
  /** Inserts with one key merge into one statement: `head` + the rows' tuples, comma-separated + `tail`. */
  merge: { key: string; head: string; row: string; tail: string } | null
  /** A DELETE by keys alone: `head` (up to `where`), the key columns, each one's parameter index. */
  keyed: { key: string; head: string; columns: readonly string[]; indexes: readonly number[] } | null
  /**
   * An UPDATE reading only its table: the columns its WHERE sets equal to a parameter, each one's
   * index; the columns it sets (null when not plain `"c" = …` terms). `merge`: when its WHERE is
   * those terms alone and each column is set to a parameter (`"c" = $n`) or a constant, each set
   * term's parameter index (null for a constant, whose term is `constants[i]`): such updates of a
   * wave's rows go as one statement (statement-merge.ts).
   */
  updateKey: {
    columns: readonly string[]
    indexes: readonly number[]
    sets: readonly string[] | null
    merge: { setIndexes: readonly (number | null)[]; constants: readonly string[] } | null
  } | null
  onConflict: boolean
  /**
   * Its text says (`READS_NONE_OF_ITS_SHAPE`) that what it reads of its own table is never a row
   * a statement of its own text inserts: such inserts of a batch need not wait for each other.
   */
  blindToOwnShape: boolean
}

/**
 * Written (as a line of its own) in an INSERT … SELECT that reads its own table only for rows its
 * own text never inserts; the projection vouches for it, where the reason can be read beside it.
 * A line comment, not a block one: a text with a `*` is never prepared (infra/db/pg-prepared.ts).
 */
export const READS_NONE_OF_ITS_SHAPE = '-- reads no row that a statement of this text inserts\n'

type Shape = Omit<Deferred, 'sql' | 'parameters' | 'event'>

const name = String.raw`"?([A-Za-z_][\w]*)"?`
const INSERT = new RegExp(String.raw`^\s*insert\s+into\s+${name}\s*(\([^)]*\))\s*`, 'i')
/** A VALUES tuple of parameters only (each maybe cast): `values ($1, $2::text)`. */
const ROW = /(?<=\bvalues\s*)\(\s*\$\d+(?:::\w+)?(?:\s*,\s*\$\d+(?:::\w+)?)*\s*\)/i
const UPDATE = new RegExp(String.raw`^\s*update\s+${name}\s+set\b`, 'i')
const DELETE = new RegExp(String.raw`^\s*delete\s+from\s+${name}`, 'i')
const KEYED_DELETE = /^(\s*delete\s+from\s+"?[A-Za-z_]\w*"?\s+where\s+)(.*)$/is
const KEY_TERM = /^\s*("?[A-Za-z_]\w*"?)\s*=\s*\$(\d+)\s*$/
const READ_TABLE = new RegExp(String.raw`\b(?:from|join|using)\s+${name}`, 'gi')
/** Where a table comes into a statement, with its alias if any. */
const DECLARED = /\b(?:from|join|using|into|update)\s+([A-Za-z_]\w*)(?:\s+(?:as\s+)?([A-Za-z_]\w*))?/gi
const NOT_ALIAS = new Set(
  'where on join left right inner outer full cross natural group order limit offset union set using returning for lateral window having except intersect values select default'.split(
    ' ',
  ),
)
const tablesRead = (text: string): Set<string> =>
  new Set([...text.matchAll(READ_TABLE)].map((m) => m[1] as string))

/** The names a statement mentions, and the tables it may read whole (see Deferred). */
const mentionsOf = (sql: string, reads: ReadonlySet<string>) => {
  const text = sql.replaceAll('"', '')
  const mentions = new Set([...text.matchAll(/[A-Za-z_]\w*/g)].map((m) => m[0].toLowerCase()))
  const declared = [...text.matchAll(DECLARED)]
  // What remains once every place a table or alias is declared is removed: their uses.
  const uses = text.replace(DECLARED, ' ')
  const wholeRows = new Set<string>()
  for (const table of reads) {
    const names = [table]
    for (const m of declared)
      if (m[1] === table && m[2] && !NOT_ALIAS.has(m[2].toLowerCase())) names.push(m[2])
    const asValue = names.some((n) => new RegExp(String.raw`\b${n}\b(?!\s*\.)`, 'i').test(uses))
    if (text.includes('*') || asValue) wholeRows.add(table)
  }
  return { mentions, wholeRows }
}

const shapes = new Map<string, Shape | null>()
const MAX_SHAPES = 1000

/** What a statement is for the plan, or null when it must run at once (a read, RETURNING, anything else). */
export const classify = (sql: string, parameters: readonly unknown[], event: number): Deferred | null => {
  let shape = shapes.get(sql)
  if (shape === undefined) {
    shape = shapeOf(sql)
    if (shapes.size < MAX_SHAPES) shapes.set(sql, shape)
  }
  return shape && deferred(shape, sql, parameters, event)
}

/**
 * Each property named: V8 copies a spread of the shape (`{ ...shape, sql }`) some fifty times
 * slower, and this runs for every write of a replay.
 */
const deferred = (shape: Shape, sql: string, parameters: readonly unknown[], event: number): Deferred => ({
  sql,
  parameters,
  event,
  kind: shape.kind,
  table: shape.table,
  reads: shape.reads,
  mentions: shape.mentions,
  wholeRows: shape.wholeRows,
  merge: shape.merge,
  keyed: shape.keyed,
  updateKey: shape.updateKey,
  onConflict: shape.onConflict,
  blindToOwnShape: shape.blindToOwnShape,
})

const shapeOf = (sql: string): Shape | null => {
  if (/\breturning\b/i.test(sql) || /^\s*with\b/i.test(sql)) return null
  const insert = INSERT.exec(sql)
  if (insert) {
    const [matched, table] = insert as unknown as [string, string]
    const rest = sql.slice(matched.length)
    const reads = tablesRead(rest)
    return {
      kind: 'insert',
      table,
      reads,
      ...mentionsOf(sql, reads),
      merge: insertMerge(sql),
      onConflict: /\bon\s+conflict\b/i.test(rest),
      keyed: null,
      updateKey: null,
      blindToOwnShape: sql.includes(READS_NONE_OF_ITS_SHAPE),
    }
  }
  const update = UPDATE.exec(sql)
  const change = update ?? DELETE.exec(sql)
  if (!change) return null
  const table = change[1] as string
  const reads = tablesRead(sql)
  reads.add(table)
  const updateKey = update && reads.size === 1 ? updateKeyOf(sql) : null
  return {
    kind: 'change',
    table,
    reads,
    ...mentionsOf(sql, reads),
    merge: null,
    onConflict: false,
    keyed: keyedDelete(sql),
    updateKey,
    blindToOwnShape: false,
  }
}

/** One tuple holding every parameter: rows of that shape go as one VALUES list. */
const insertMerge = (sql: string): Deferred['merge'] => {
  const tuple = ROW.exec(sql)
  if (!tuple) return null
  const [head, tail] = [sql.slice(0, tuple.index), sql.slice(tuple.index + tuple[0].length)]
  if (`${head}${tail}`.includes('$')) return null
  return { key: `${head}\u0000${tail}`, head, row: tuple[0], tail }
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

/**
 * `update t set "a" = $1, "b" = $2 where …`: the columns set, when each term is that plain, and
 * each term's parameter index (null for a constant) and its text.
 */
const setTermsOf = (
  sql: string,
  whereAt: number,
): { columns: string[]; indexes: (number | null)[]; texts: string[] } | null => {
  const set = /\bset\b/i.exec(sql)
  if (!set) return null
  const texts = sql.slice(set.index + 3, whereAt).split(',')
  const terms = texts.map((term) =>
    /^\s*"?([A-Za-z_]\w*)"?\s*=\s*(?:\$(\d+)|true|false|null)\s*$/i.exec(term),
  )
  if (!terms.every((m) => m !== null)) return null
  const matched = terms as RegExpExecArray[]
  return {
    columns: matched.map((m) => m[1] as string),
    indexes: matched.map((m) => (m[2] === undefined ? null : Number(m[2]) - 1)),
    texts: texts.map((text) => text.trim()),
  }
}

/** `update t set … where "a" = $2 and (…)`: the columns set equal to a parameter. */
const updateKeyOf = (sql: string): Deferred['updateKey'] => {
  const wheres = [...sql.matchAll(/\bwhere\b/gi)]
  if (wheres.length !== 1 || /'/.test(sql)) return null
  const whereAt = wheres[0]?.index ?? 0
  const where = sql.slice(whereAt + 'where'.length)
  const all = topLevelTerms(where)
  const terms = all.flatMap((term) => {
    const match = KEY_TERM.exec(term)
    return match ? [{ column: (match[1] as string).replaceAll('"', ''), index: Number(match[2]) - 1 }] : []
  })
  if (terms.length === 0) return null
  const sets = setTermsOf(sql, whereAt)
  const keysOnly =
    terms.length === all.length && new Set(terms.map((term) => term.column)).size === terms.length
  return {
    columns: terms.map((term) => term.column),
    indexes: terms.map((term) => term.index),
    sets: sets?.columns ?? null,
    merge: sets && keysOnly ? { setIndexes: sets.indexes, constants: sets.texts } : null,
  }
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
