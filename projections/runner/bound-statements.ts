/// Projection writes whose statement text is made once per shape and then only bound to each
/// event's values: Kysely's builder and compiler remade the same text for every event, some fifth
/// of a replay's Node CPU (issue 31). Each text is the one Kysely writes for the same statement
/// (`insert into "t" ("a", "b") values ($1, $2)`, `$n` in the order of the values), so the
/// projector's batched path (statement-shape.ts) reads and merges it as before, and a database
/// that prepares statements by text (infra/db/pg-prepared.ts) sees the same few texts.

import { CompiledQuery, type Insertable, type Transaction, type Updateable } from 'kysely'
import type { Database } from '../database.js'

/** Where the statement goes: a projection's transaction, over any tables it owns. */
export type Trx = Pick<Transaction<Database>, 'executeQuery'>

const bySite = new WeakMap<TemplateStringsArray, string>()

/**
 * A statement written as a template (`bound\`… ${value}::text …\``): each `${…}` a parameter, in
 * order, as Kysely's `sql` tag makes them. Its text is made once per place in the code (a template's
 * strings are one object per call site). Only plain values: no nested `sql` fragments.
 */
export const bound = (strings: TemplateStringsArray, ...values: unknown[]): CompiledQuery => {
  let text = bySite.get(strings)
  if (text === undefined) {
    text = strings.reduce((made, part, index) => `${made}$${index}${part}`)
    bySite.set(strings, text)
  }
  return CompiledQuery.raw(text, values)
}

/** Texts by table, kind and columns; a projection writes a few dozen shapes. */
const byShape = new Map<string, string>()

const quoted = (name: string) => `"${name}"`

const textOf = (key: string, make: () => string): string => {
  let text = byShape.get(key)
  if (text === undefined) {
    text = make()
    byShape.set(key, text)
  }
  return text
}

/** Its defined entries (Kysely leaves out a column whose value is undefined). */
const defined = (row: object): [string[], unknown[]] => {
  const columns: string[] = []
  const values: unknown[] = []
  for (const [column, value] of Object.entries(row)) {
    if (value === undefined) continue
    columns.push(column)
    values.push(value)
  }
  return [columns, values]
}

/**
 * Every entry of a `where`: a key whose value is undefined stays a key (it matches no row, as
 * Kysely's `where(c, '=', undefined)` does), never dropped to widen the write.
 */
const keysOf = (where: object): [string[], unknown[]] => [Object.keys(where), Object.values(where)]

const equalities = (columns: readonly string[], from: number) => {
  // Never a statement on every row of the table by accident.
  if (columns.length === 0) throw new Error('a write by keys without keys')
  return columns.map((column, index) => `${quoted(column)} = $${from + index}`)
}

/**
 * `insert into "t" ("a", "b") values ($1, $2)`: one row; with `ifAbsentBy`, `on conflict ("k") do
 * nothing` (a row already there by that unique column stays as it is).
 */
export const insertRow = async <DB = Database, T extends keyof DB & string = keyof DB & string>(
  trx: Trx,
  table: T,
  row: Insertable<DB[T]>,
  ifAbsentBy?: keyof DB[T] & string,
): Promise<void> => {
  const [columns, values] = defined(row as object)
  const text = textOf(`insert\u0000${table}\u0000${columns.join(',')}\u0000${ifAbsentBy ?? ''}`, () => {
    const places = columns.map((_, index) => `$${index + 1}`)
    const conflict = ifAbsentBy === undefined ? '' : ` on conflict (${quoted(ifAbsentBy)}) do nothing`
    return `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values (${places.join(', ')})${conflict}`
  })
  await trx.executeQuery(CompiledQuery.raw(text, values))
}

/** `update "t" set "a" = $1 where "k" = $2 and "l" = $3`: the rows whose columns equal `where`'s. */
export const updateRows = async <DB = Database, T extends keyof DB & string = keyof DB & string>(
  trx: Trx,
  table: T,
  set: Updateable<DB[T]>,
  where: Partial<Record<keyof DB[T] & string, unknown>>,
): Promise<void> => {
  const [columns, values] = defined(set as object)
  const [keys, keyValues] = keysOf(where)
  const text = textOf(`update\u0000${table}\u0000${columns.join(',')}\u0000${keys.join(',')}`, () => {
    const sets = equalities(columns, 1).join(', ')
    return `update ${quoted(table)} set ${sets} where ${equalities(keys, columns.length + 1).join(' and ')}`
  })
  await trx.executeQuery(CompiledQuery.raw(text, [...values, ...keyValues]))
}

/** `delete from "t" where "k" = $1 and "l" = $2`: the rows whose columns equal `where`'s. */
export const deleteRows = async <DB = Database, T extends keyof DB & string = keyof DB & string>(
  trx: Trx,
  table: T,
  where: Partial<Record<keyof DB[T] & string, unknown>>,
): Promise<void> => {
  const [keys, values] = keysOf(where)
  const text = textOf(`delete\u0000${table}\u0000${keys.join(',')}`, () => {
    return `delete from ${quoted(table)} where ${equalities(keys, 1).join(' and ')}`
  })
  await trx.executeQuery(CompiledQuery.raw(text, values))
}
