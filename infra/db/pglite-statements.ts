/// Named prepared statements on PGlite. `PGlite.query` parses, plans and describes its SQL on every
/// call, in five protocol messages, and inside WebAssembly that costs more than running the
/// statement: a primary-key lookup takes ~0.2 ms that way and ~0.06 ms as a prepared statement.
/// Here each SQL text is prepared once under a name, with its parameter types, and later calls
/// send one bind-execute-sync message. Values are serialised by the same per-type serialisers
/// PGlite's own `query` picks, and rows come back through its own parsers, so results are the same.

import type { PGliteInterface, parse, protocol, Results } from '@electric-sql/pglite'

/** What this module needs of `@electric-sql/pglite`, loaded by the caller (lazily: see database.ts). */
export type PGliteWire = { serialize: typeof protocol.serialize; parseResults: typeof parse.parseResults }

type Serializer = (value: unknown) => string
type Codecs = { serializers: Record<number, Serializer>; parsers: Record<number | string, unknown> }

type Prepared = { name: string; parameterTypes: readonly number[] }

/**
 * How many SQL texts stay prepared. Tessera's queries are a few hundred fixed texts; a longer tail
 * (`in (...)` lists of many lengths) closes the least recently used, so the plans held inside
 * PGlite's memory stay bounded.
 */
const MAX_PREPARED = 400

/** Errors after which a prepared statement is no use: its plan changed shape, or it is gone. */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000'])

export type PGliteStatements = {
  /**
   * `inTransaction`: a failure there aborts the transaction, so a statement that went stale (see
   * below) fails the call; outside one it is prepared again and the call goes through.
   */
  query<R>(sql: string, parameters: readonly unknown[], inTransaction: boolean): Promise<Results<R>>
}

/** null when the client is not PGlite itself (it lacks the serialisers); then use `query`. */
export const preparedStatements = (client: PGliteInterface, wire: PGliteWire): PGliteStatements | null => {
  const codecs = client as unknown as Partial<Codecs>
  if (!codecs.serializers || !codecs.parsers) return null
  const { serializers, parsers } = codecs as Codecs
  const { serialize, parseResults } = wire
  const prepared = new Map<string, Prepared>()
  const closing: string[] = []
  let counter = 0

  const run = async (parts: Uint8Array[]) => {
    // Statements that fell out of the cache are closed first, in the same round trip.
    const message = concat([
      ...closing.splice(0).map((name) => serialize.close({ type: 'S', name })),
      ...parts,
    ])
    const { messages } = await client.runExclusive(() => client.execProtocol(message))
    return messages
  }

  const prepare = async (sql: string): Promise<Prepared> => {
    counter += 1
    const name = `tessera_${counter}`
    const messages = await run([
      serialize.parse({ text: sql, name, types: [] }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ])
    const described = messages.find((message) => message.name === 'parameterDescription') as
      | { dataTypeIDs: number[] }
      | undefined
    const statement = { name, parameterTypes: described?.dataTypeIDs ?? [] }
    prepared.set(sql, statement)
    if (prepared.size > MAX_PREPARED) {
      const [oldest] = prepared
      if (oldest) {
        prepared.delete(oldest[0])
        closing.push(oldest[1].name)
      }
    }
    return statement
  }

  const lookup = (sql: string): Prepared | undefined => {
    const statement = prepared.get(sql)
    if (statement) {
      // Most recently used last: the map's order is the eviction order.
      prepared.delete(sql)
      prepared.set(sql, statement)
    }
    return statement
  }

  const execute = async <R>(statement: Prepared, parameters: readonly unknown[]): Promise<Results<R>> => {
    const values = parameters.map((value, index) => {
      if (value === null || value === undefined) return null
      const serializer = serializers[statement.parameterTypes[index] ?? 0]
      return serializer ? serializer(value) : String(value)
    })
    const messages = await run([
      serialize.bind({ statement: statement.name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ])
    return parseResults(messages, parsers as never)[0] as Results<R>
  }

  return {
    async query<R>(sql: string, parameters: readonly unknown[], inTransaction: boolean): Promise<Results<R>> {
      const statement = lookup(sql) ?? (await prepare(sql))
      try {
        return await execute<R>(statement, parameters)
      } catch (error) {
        // A table changed under a `select *` (DDL after the statement was prepared), or the
        // statement was deallocated: forget it, so the text is prepared again.
        if (!STALE_STATEMENT_CODES.has((error as { code?: string }).code ?? '')) throw error
        if (prepared.get(sql) === statement) {
          prepared.delete(sql)
          closing.push(statement.name)
        }
        if (inTransaction) throw error
        return execute<R>(await prepare(sql), parameters)
      }
    },
  }
}

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  let length = 0
  for (const part of parts) length += part.length
  const message = new Uint8Array(length)
  let offset = 0
  for (const part of parts) {
    message.set(part, offset)
    offset += part.length
  }
  return message
}
