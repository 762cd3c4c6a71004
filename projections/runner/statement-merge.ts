/// Writes of one shape that the plan put in one wave (statement-plan.ts), sent as one statement:
/// inserts as one VALUES list and deletes by keys as one `in (…)`, so that a replay's thousands of
/// writes travel as a few statements. Updates go one statement each: merged as one
/// `UPDATE … FROM (VALUES …)` they ran slower in the replay bench (its join over a users table the
/// replay is filling), so that was not kept.
///
/// On PostgreSQL the statements travel with their values written in as literals (write-behind.ts):
/// `inlineGroup` writes each row's tuple with its own write's values, where numbering the merged
/// statement's parameters and then writing them in read every row's text twice more (some 15% of a
/// replay's busy process time went to the two in its CPU profile).

import { inlineParameters, sqlLiteral } from '../../infra/db/sql-literals.js'
import type { Deferred } from './statement-shape.js'

export type Statement = { sql: string; parameters: readonly unknown[] }

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
export const mergeGroup = (group: readonly Deferred[]): Statement[] => {
  const first = group[0] as Deferred
  const alone = () => group.map(({ sql, parameters }) => ({ sql, parameters }))
  if (group.length === 1) return alone()
  if (first.keyed) return mergeDeletes(group, first.keyed)
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
  if (!first.merge) return alone()
  const { head, row, tail } = first.merge
  return slices(group, first.parameters.length).map(
    (rows) => `${head}${rows.map((write) => inlineParameters(row, write.parameters)).join(', ')}${tail}`,
  )
}

const inlineDeletes = (group: readonly Deferred[], keyed: NonNullable<Deferred['keyed']>): string[] => {
  const target = keyed.columns.length === 1 ? keyed.columns[0] : `(${keyed.columns.join(', ')})`
  return slices(group, keyed.columns.length).map((rows) => {
    const tuples = rows.map((write) => {
      const values = keyed.indexes.map((index) => sqlLiteral(write.parameters[index]))
      return values.length === 1 ? values[0] : `(${values.join(', ')})`
    })
    return `${keyed.head}${target} in (${tuples.join(', ')})`
  })
}
