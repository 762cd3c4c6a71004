/// One statement's parameters written into its text as literals, so that many statements travel as
/// one text in PostgreSQL's simple protocol (one round trip; the projector's batches, apply-batch.ts).
/// Each value becomes exactly the text node-postgres would send as that parameter (its own
/// `prepareValue`), quoted as a literal of no type: PostgreSQL then types it from its place, as it
/// types an untyped parameter, so the statement means the same.

import { createRequire } from 'node:module'
import { isDate } from 'node:util/types'

type PrepareValue = (value: unknown) => string | Buffer | null
const requirePg = createRequire(import.meta.url)
const { prepareValue } = requirePg('pg/lib/utils.js') as { prepareValue: PrepareValue }
const pgDefaults = requirePg('pg/lib/defaults.js') as { parseInputDatesAsUTC: boolean }

/**
 * A date as node-postgres writes it, kept for the last one: a replay's rows give most dates twice
 * in a row (`created_at`, `updated_at`, an event's time), and pg's writing of a date was a tenth
 * of the batched path's time. Its text depends only on the instant, the time zone's offset at it
 * and pg's `parseInputDatesAsUTC`, all three in the key.
 */
let lastDate = { ms: Number.NaN, offset: Number.NaN, utc: false, text: '' }
const dateText = (date: Date): string => {
  const ms = date.getTime()
  const offset = date.getTimezoneOffset()
  const utc = pgDefaults.parseInputDatesAsUTC
  if (ms === lastDate.ms && offset === lastDate.offset && utc === lastDate.utc) return lastDate.text
  const text = prepareValue(date) as string
  lastDate = { ms, offset, utc, text }
  return text
}

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
  const prepared =
    typeof value === 'bigint' ? value.toString() : isDate(value) ? dateText(value) : prepareValue(value)
  if (prepared === null) return 'null'
  return quoted(typeof prepared === 'string' ? prepared : `\\x${prepared.toString('hex')}`)
}

// A quoted string or identifier (copied as it is; an unterminated one is refused), or a `$n`.
const TOKEN = /'[^']*'?|"[^"]*"?|\$(\d+)/g

/**
 * What a value's literal holds between its quotes when it needs no escaping (a string with no quote
 * nor backslash, a date); undefined for any other value.
 */
const plainText = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value.includes("'") || value.includes('\\') ? undefined : value
  return isDate(value) ? dateText(value) : undefined
}

/**
 * A statement cut at its parameters: part 0, parameter `indexes[0]`, part 1, … Each part four
 * times (`quotedParts[4 * i]` on): as it is, opening the quote of a plain literal after it,
 * closing the one before it, both; so that a plain value goes in as it is, not copied into a
 * quoted string of its own (a replay writes in millions of values).
 */
type Template = {
  quotedParts: readonly string[]
  indexes: readonly number[]
  tokens: readonly string[]
}

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
  const quotedParts = parts.flatMap((part) => [part, `${part}'`, `'${part}`, `'${part}'`])
  return { quotedParts, indexes, tokens }
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
  const { quotedParts, indexes, tokens } = templateOf(sql)
  let text = ''
  // 2 when the value before the next part was plain: that part closes its quote.
  let closing = 0
  for (let i = 0; i < indexes.length; i++) {
    const index = indexes[i] as number
    if (index < 0 || index >= parameters.length) throw new Error(`no parameter for ${tokens[i]}`)
    const value = parameters[index]
    const plain = plainText(value)
    if (plain === undefined) {
      text += quotedParts[i * 4 + closing] as string
      text += sqlLiteral(value)
      closing = 0
    } else {
      text += quotedParts[i * 4 + closing + 1] as string
      text += plain
      closing = 2
    }
  }
  return text + (quotedParts[indexes.length * 4 + closing] as string)
}
