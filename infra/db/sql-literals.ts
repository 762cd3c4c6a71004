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

// A quoted string or identifier (copied as it is; an unterminated one is refused), or a `$n`.
const TOKEN = /'[^']*'?|"[^"]*"?|\$(\d+)/g

/**
 * `sql` with each `$n` replaced by the literal of `parameters[n - 1]`. Quoted strings and quoted
 * identifiers of the text are copied as they are; a `$n` without a parameter is refused. One
 * regular-expression pass: a replay inlines megabytes of statements.
 */
export const inlineParameters = (sql: string, parameters: readonly unknown[]): string =>
  sql.replace(TOKEN, (token: string, digits: string | undefined) => {
    if (digits === undefined) {
      if (token.length < 2 || token.at(-1) !== token[0])
        throw new Error('an unterminated quote in a statement to inline')
      return token
    }
    const index = Number(digits) - 1
    if (index < 0 || index >= parameters.length) throw new Error(`no parameter for ${token}`)
    return sqlLiteral(parameters[index])
  })
