/// Writes of one shape that the plan put in one wave (statement-plan.ts), sent as one statement:
/// inserts as one VALUES list and deletes by keys as one `in (…)`, so that a replay's thousands of
/// writes travel as a few statements. Updates of one text that each name one row by a unique key
/// (the plan puts no row twice in a wave) go as one statement that picks each row's values by its
/// keys: `update "t" set "a" = case "id" when 'k1' then 'v1' when 'k2' then 'v2' else "a" end where
/// "id" in ('k1', 'k2')`; each row changes exactly as its own statement would change it. Not an
/// `UPDATE … FROM (VALUES …)`: that one ran slower in the replay bench (its join over a table the
/// replay is filling), and its values would need the columns' types, where a CASE's untyped values
/// take the type of its ELSE, the column's own. A replay's active-organization changes were one
/// statement each, 100 of the 115 statements per 1,000 events (issue 31).
///
/// On PostgreSQL the statements travel with their values written in as literals (write-behind.ts):
/// `inlineGroup` writes each row's tuple with its own write's values, where numbering the merged
/// statement's parameters and then writing them in read every row's text twice more (some 15% of a
/// replay's busy process time went to the two in its CPU profile), and joins a list's rows in
/// pieces (`listOf`).

import { inlineParameters, sqlLiteral } from '../../infra/db/sql-literals.js'
import type { Deferred } from './statement-shape.js'

export type Statement = { sql: string; parameters: readonly unknown[] }

/** Parameters per merged statement at most (PostgreSQL takes 65,535). */
const MAX_PARAMETERS = 30_000

/** Rows per merged update at most: each row's CASE tries the rows' keys in turn. */
const MAX_UPDATE_ROWS = 100

/** Slices of `group`, each with at most MAX_PARAMETERS parameters of `width` per write. */
const slices = <T>(group: readonly T[], width: number): T[][] => {
  const per = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, width)))
  const out: T[][] = []
  for (let start = 0; start < group.length; start += per) out.push(group.slice(start, start + per))
  return out
}

const renumber = (text: string, offset: number) =>
  text.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + offset}`)

/** One wave's writes of one shape (a group key of the plan): the statements that do them. */
export const mergeGroup = (group: readonly Deferred[]): Statement[] => {
  const first = group[0] as Deferred
  const alone = () => group.map(({ sql, parameters }) => ({ sql, parameters }))
  if (group.length === 1) return alone()
  if (first.keyed) return mergeDeletes(group, first.keyed)
  if (first.updateKey?.merge) {
    return updateSlices(group).map((rows) => {
      const parameters: unknown[] = []
      const sql = mergedUpdate(rows, (value) => `$${parameters.push(value)}`)
      return { sql, parameters }
    })
  }
  if (!first.merge) return alone()
  const { head, row, tail } = first.merge
  return slices(group, first.parameters.length).map((rows) => ({
    sql: `${head}${rows.map((_, i) => renumber(row, i * first.parameters.length)).join(', ')}${tail}`,
    parameters: rows.flatMap((write) => write.parameters),
  }))
}

/** Keyed deletes of one shape as one: `where "a" in ($1, $2)`, or `where ("a", "b") in (($1, $2), …)`. */
const mergeDeletes = (group: readonly Deferred[], keyed: NonNullable<Deferred['keyed']>): Statement[] => {
  const width = keyed.columns.length
  return slices(group, width).map((rows) => {
    const parameters = rows.flatMap((write) => keyed.indexes.map((index) => write.parameters[index]))
    const tuples = rows.map((_, row) => {
      const places = keyed.columns.map((_, column) => `$${row * width + column + 1}`)
      return width === 1 ? places[0] : `(${places.join(', ')})`
    })
    const target = width === 1 ? keyed.columns[0] : `(${keyed.columns.join(', ')})`
    return { sql: `${keyed.head}${target} in (${tuples.join(', ')})`, parameters }
  })
}

/** `mergeGroup`'s statements with their values written in as literals (infra/db/sql-literals.ts). */
export const inlineGroup = (group: readonly Deferred[]): string[] => {
  const first = group[0] as Deferred
  const alone = () => group.map(({ sql, parameters }) => inlineParameters(sql, parameters))
  if (group.length === 1) return alone()
  if (first.keyed) return inlineDeletes(group, first.keyed)
  if (first.updateKey?.merge) return updateSlices(group).map((rows) => mergedUpdate(rows, sqlLiteral))
  if (!first.merge) return alone()
  const { head, row, tail } = first.merge
  return slices(group, first.parameters.length).map(
    (rows) => `${head}${listOf(rows, (write) => inlineParameters(row, write.parameters))}${tail}`,
  )
}

const inlineDeletes = (group: readonly Deferred[], keyed: NonNullable<Deferred['keyed']>): string[] => {
  const target = keyed.columns.length === 1 ? keyed.columns[0] : `(${keyed.columns.join(', ')})`
  const tupleOf = (write: Deferred) => {
    const values = keyed.indexes.map((index) => sqlLiteral(write.parameters[index]))
    return values.length === 1 ? (values[0] as string) : `(${values.join(', ')})`
  }
  return slices(group, keyed.columns.length).map(
    (rows) => `${keyed.head}${target} in (${listOf(rows, tupleOf)})`,
  )
}

/**
 * Characters per joined piece of a list at most (give or take an item). V8 puts a string of more
 * than 128 kB in memory of its own, fresh for each: joining a slice's megabyte of rows at once cost
 * several times as much per byte as joining it in pieces that stay in the young generation. The
 * pieces are concatenated without a copy; the batch's text is copied once, when it is sent.
 */
const LIST_PIECE = 30_000

/** `items.map(text).join(', ')`, joined piece by piece (LIST_PIECE). */
const listOf = <T>(items: readonly T[], text: (item: T) => string): string => {
  let list: string | undefined
  let piece: string[] = []
  let length = 0
  for (let i = 0; i < items.length; i++) {
    const item = text(items[i] as T)
    piece.push(item)
    length += item.length
    if (length < LIST_PIECE && i < items.length - 1) continue
    list = list === undefined ? piece.join(', ') : `${list}, ${piece.join(', ')}`
    piece = []
    length = 0
  }
  return list ?? ''
}

const updateSlices = (group: readonly Deferred[]): Deferred[][] => {
  const out: Deferred[][] = []
  for (let start = 0; start < group.length; start += MAX_UPDATE_ROWS)
    out.push(group.slice(start, start + MAX_UPDATE_ROWS))
  return out
}

/**
 * One statement for updates of one text (`update "t" set … where "k" = $1 and …`, keys only),
 * each of another row: every column set to a parameter takes the value of the row whose keys match
 * (its own value otherwise, never reached: the WHERE takes only those rows). `value` writes one
 * value into the text (a literal, or a parameter's place).
 */
const mergedUpdate = (rows: readonly Deferred[], value: (parameter: unknown) => string): string => {
  const first = rows[0] as Deferred
  const key = first.updateKey as NonNullable<Deferred['updateKey']>
  const { setIndexes, constants } = key.merge as NonNullable<typeof key.merge>
  const columns = key.columns.map(quotedName)
  const keysOf = (write: Deferred) => key.indexes.map((index) => value(write.parameters[index]))
  const keyValues = rows.map(keysOf)
  const match = (values: string[]) =>
    columns.length === 1 ? values[0] : values.map((v, i) => `${columns[i]} = ${v}`).join(' and ')
  const sets = setIndexes.map((index, term) => {
    if (index === null) return constants[term]
    const column = quotedName((key.sets as readonly string[])[term] as string)
    const whens = rows.map(
      (write, row) => ` when ${match(keyValues[row] as string[])} then ${value(write.parameters[index])}`,
    )
    return `${column} = case${columns.length === 1 ? ` ${columns[0]}` : ''}${whens.join('')} else ${column} end`
  })
  const target = columns.length === 1 ? columns[0] : `(${columns.join(', ')})`
  const tuples = keyValues.map((values) => (values.length === 1 ? values[0] : `(${values.join(', ')})`))
  return `update ${quotedName(first.table)} set ${sets.join(', ')} where ${target} in (${tuples.join(', ')})`
}

const quotedName = (name: string) => `"${name}"`
