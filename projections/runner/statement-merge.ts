/// Writes of one shape that the plan put in one wave (statement-plan.ts), sent as one statement:
/// inserts as one VALUES list, deletes by keys as one `in (…)`, and updates of one row each as one
/// `UPDATE … FROM (VALUES …)`, so that a replay's thousands of writes travel as a few statements.

import type { Deferred } from './statement-shape.js'

export type Statement = { sql: string; parameters: readonly unknown[] }

/** Each table's columns and their types (`format_type`), from the database's catalog. */
export type ColumnTypes = ReadonlyMap<string, ReadonlyMap<string, string>>

/** Parameters per merged statement at most (PostgreSQL takes 65,535). */
const MAX_PARAMETERS = 30_000

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
export const mergeGroup = (group: readonly Deferred[], columnTypes?: ColumnTypes): Statement[] => {
  const first = group[0] as Deferred
  const alone = () => group.map(({ sql, parameters }) => ({ sql, parameters }))
  if (group.length === 1) return alone()
  if (first.keyed) return mergeDeletes(group, first.keyed)
  if (first.updateKey) return mergeUpdates(group, columnTypes) ?? alone()
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

/**
 * Updates of one shape, each of its own row (the plan never puts two updates of one row in a wave),
 * as one statement: each update's parameters become a row of a VALUES list joined by the WHERE, so
 * each row is matched by its own values and changed once, as by its own statement. The first row
 * casts each value to its column's type, as PostgreSQL typed the parameter from that column.
 * Null when a parameter's column type is unknown.
 */
const mergeUpdates = (group: readonly Deferred[], columnTypes?: ColumnTypes): Statement[] | null => {
  const first = group[0] as Deferred
  const columns = first.updateKey?.parameterColumns
  const types = columnTypes?.get(first.table)
  const casts = columns?.map((column) => types?.get(column))
  if (!columns || columns.length === 0 || !casts || casts.some((cast) => cast === undefined)) return null
  const whereAt = /\bwhere\b/i.exec(first.sql)?.index
  if (whereAt === undefined) return null
  const names = columns.map((_, i) => `tessera_p${i + 1}`).join(', ')
  const width = columns.length
  const [set, where] = [first.sql.slice(0, whereAt), first.sql.slice(whereAt)].map((part) =>
    part.replace(/\$(\d+)/g, (_, n) => `tessera_v.tessera_p${n}`),
  )
  return slices(group, width).map((rows) => {
    const tuples = rows.map((_, row) => {
      const places = casts.map((cast, i) => `$${row * width + i + 1}${row === 0 ? `::${cast}` : ''}`)
      return `(${places.join(', ')})`
    })
    return {
      sql: `${set}from (values ${tuples.join(', ')}) as tessera_v (${names}) ${where}`,
      parameters: rows.flatMap((write) => write.parameters.slice(0, width)),
    }
  })
}
