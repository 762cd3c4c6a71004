/// One statement's parameters written into its text as literals, so that many statements travel as
/// one text in PostgreSQL's simple protocol (one round trip; the projector's batches, apply-batch.ts).
/// Each value becomes exactly the text node-postgres would send as that parameter (its own
/// `prepareValue`), quoted as a literal of no type: PostgreSQL then types it from its place, as it
/// types an untyped parameter, so the statement means the same.

import { createRequire } from 'node:module'

type PrepareValue = (value: unknown) => string | Buffer | null
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: PrepareValue }

/**
 * `text` quoted as node-postgres's `escapeLiteral` quotes it (quotes doubled; with a backslash,
 * backslashes doubled and an ` E` before it), without its character-by-character copy: a replay
 * quotes megabytes of values, and nearly none holds a quote or a backslash.
 */
const quoted = (text: string): string => {
  const doubled = text.includes("'") ? text.replaceAll("'", "''") : text
  return text.includes('\\') ? ` E'${doubled.replaceAll('\\', '\\\\')}'` : `'${doubled}'`
}

/** A parameter's value as a SQL literal (`null`, or a quoted string). */
export const sqlLiteral = (value: unknown): string => {
  if (typeof value === 'string') return quoted(value)
  const prepared = typeof value === 'bigint' ? value.toString() : prepareValue(value)
  if (prepared === null) return 'null'
  return quoted(typeof prepared === 'string' ? prepared : `\\x${prepared.toString('hex')}`)
}

// A quoted string or identifier (copied as it is; an unterminated one is refused), or a `$n`.
const TOKEN = /'[^']*'?|"[^"]*"?|\$(\d+)/g

/** A statement cut at its parameters: `parts[0]`, parameter `indexes[0]`, `parts[1]`, … */
type Template = { parts: readonly string[]; indexes: readonly number[]; tokens: readonly string[] }

const cut = (sql: string): Template => {
  const parts: string[] = []
  const indexes: number[] = []
  const tokens: string[] = []
  let from = 0
  for (const match of sql.matchAll(TOKEN)) {
    const [token, digits] = match
    if (digits === undefined) {
      if (token.length < 2 || token.at(-1) !== token[0])
        throw new Error('an unterminated quote in a statement to inline')
      continue
    }
    parts.push(sql.slice(from, match.index))
    indexes.push(Number(digits) - 1)
    tokens.push(token)
    from = match.index + token.length
  }
  parts.push(sql.slice(from))
  return { parts, indexes, tokens }
}

// Projections send a few dozen texts, each thousands of times in a replay: each is cut once.
// Long texts (merged statements) are cut each time and not kept.
const templates = new Map<string, Template>()
const MAX_TEMPLATES = 1000
const MAX_KEPT_TEXT = 10_000

const templateOf = (sql: string): Template => {
  const known = templates.get(sql)
  if (known) return known
  const template = cut(sql)
  if (sql.length <= MAX_KEPT_TEXT && templates.size < MAX_TEMPLATES) templates.set(sql, template)
  return template
}

/**
 * `sql` with each `$n` replaced by the literal of `parameters[n - 1]`. Quoted strings and quoted
 * identifiers of the text are copied as they are; a `$n` without a parameter is refused.
 */
export const inlineParameters = (sql: string, parameters: readonly unknown[]): string => {
  const { parts, indexes, tokens } = templateOf(sql)
  let text = parts[0] as string
  for (let i = 0; i < indexes.length; i++) {
    const index = indexes[i] as number
    if (index < 0 || index >= parameters.length) throw new Error(`no parameter for ${tokens[i]}`)
    text += sqlLiteral(parameters[index]) + (parts[i + 1] as string)
  }
  return text
}
