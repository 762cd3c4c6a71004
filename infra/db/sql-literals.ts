/// One statement's parameters written into its text as literals, so that many statements travel as
/// one text in PostgreSQL's simple protocol (one round trip; the projector's batches, apply-batch.ts).
/// Each value becomes exactly the text node-postgres would send as that parameter (its own
/// `prepareValue`), quoted as a literal of no type: PostgreSQL then types it from its place, as it
/// types an untyped parameter, so the statement means the same.

import { createRequire } from 'node:module'
import pg from 'pg'

type PrepareValue = (value: unknown) => string | Buffer | null
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: PrepareValue }

/** A parameter's value as a SQL literal (`null`, or a quoted string). */
export const sqlLiteral = (value: unknown): string => {
  const prepared = typeof value === 'bigint' ? value.toString() : prepareValue(value)
  if (prepared === null) return 'null'
  return pg.escapeLiteral(typeof prepared === 'string' ? prepared : `\\x${prepared.toString('hex')}`)
}

/**
 * `sql` with each `$n` replaced by the literal of `parameters[n - 1]`. Quoted strings and quoted
 * identifiers of the text are copied as they are; a `$n` without a parameter is refused.
 */
export const inlineParameters = (sql: string, parameters: readonly unknown[]): string => {
  let out = ''
  let i = 0
  while (i < sql.length) {
    const char = sql[i] as string
    if (char === "'" || char === '"') {
      const end = sql.indexOf(char, i + 1)
      if (end === -1) throw new Error('an unterminated quote in a statement to inline')
      out += sql.slice(i, end + 1)
      i = end + 1
      continue
    }
    const param = char === '$' ? /^\$(\d+)/.exec(sql.slice(i, i + 12)) : null
    if (!param) {
      out += char
      i += 1
      continue
    }
    const index = Number(param[1]) - 1
    if (index < 0 || index >= parameters.length) throw new Error(`no parameter for ${param[0]}`)
    out += sqlLiteral(parameters[index])
    i += param[0].length
  }
  return out
}
