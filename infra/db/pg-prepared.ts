/// Named prepared statements on PostgreSQL. node-postgres sends each query as parse, bind,
/// describe, execute: PostgreSQL parses and plans it every time. Planning Tessera's appends (common
/// table expressions of several steps) and its projector's statements cost about 0.7 ms of the
/// server's CPU per sign-in and per sign-up, more than running them. A statement sent under a name is
/// parsed once per connection, and after five runs PostgreSQL may keep a generic plan for it.
///
/// Only statements whose result cannot change shape are named. PostgreSQL re-plans a prepared
/// statement when a table it reads changes, but refuses one whose result columns would change
/// ("cached plan must not change result type"): a `select *` prepared before a rolling deploy adds a
/// column would fail on every connection that holds it. So no text with a `*` in it is named (that
/// leaves out `count(*)` too, which costs nothing to plan); nor anything but queries and changes of
/// rows (`begin`, `commit`, migrations' DDL).
///
/// The names are per text, shared by the pool's connections, and at most `MAX_NAMED` texts get one,
/// so the plans each backend keeps stay bounded even when `in (...)` lists of many lengths come by.
/// A pooler that hands one session's statements to another backend (PgBouncer in transaction mode
/// without `max_prepared_statements`) cannot run named statements: `DATABASE_PREPARED_STATEMENTS=off`
/// sends every query unnamed, as before.

import { createHash } from 'node:crypto'

type Pg = typeof import('pg')

/** Texts named at most; beyond it, queries go unnamed. Tessera's hot statements are a few dozen. */
export const MAX_NAMED = 200

/** Whether `text` may be prepared under a name (see above): a query or a change of rows, no `*`. */
export const nameable = (text: string): boolean =>
  /^\s*(select|insert|update|delete|with)\b/i.test(text) && !text.includes('*')

/** A pg `Client` class that names the statements `nameable` allows, the first `limit` of them. */
export const namingClient = (pgModule: Pg, limit = MAX_NAMED): Pg['Client'] => {
  const names = new Map<string, string>()
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text)
    if (known !== undefined || names.size >= limit || !nameable(text)) return known
    // A digest, not a counter: two pools (two processes) give one text the same name.
    const name = `tessera_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`
    names.set(text, name)
    return name
  }
  return class NamingClient extends pgModule.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this forwards them
    override query(config: any, values?: any, callback?: any): any {
      const name = typeof config === 'string' && Array.isArray(values) ? nameOf(config) : undefined
      return name === undefined
        ? super.query(config, values, callback)
        : super.query({ name, text: config, values }, callback)
    }
  }
}
