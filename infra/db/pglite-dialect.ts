/// A Kysely dialect for embedded PGlite. PGlite is one connection; `kysely-pglite`'s driver hands
/// that connection to every caller at once, so two concurrent transactions would interleave their
/// statements. This driver lends the connection to one caller at a time (a FIFO mutex), which
/// gives real transaction isolation with the same SQL as PostgreSQL.

import type { PGliteInterface } from '@electric-sql/pglite'
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely'
import { type PGliteStatements, preparedStatements } from './pglite-statements.js'

class PGliteConnection implements DatabaseConnection {
  /** Set by the driver's `init`; until then (and for a client that is not PGlite itself) `query`. */
  statements: PGliteStatements | null = null
  /** Between this driver's `begin` and its `commit` or `rollback`. */
  private inTransaction = false

  constructor(private readonly client: PGliteInterface) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = this.statements
      ? await this.statements.query<R>(query.sql, query.parameters, this.inTransaction)
      : await this.client.query<R>(query.sql, [...query.parameters])
    const affected = result.affectedRows
    return {
      rows: result.rows,
      ...(affected !== undefined && result.fields.length === 0 ? { numAffectedRows: BigInt(affected) } : {}),
    }
  }

  /**
   * A statement without parameters in PostgreSQL's simple protocol: one message where `query`
   * sends five (parse, describe, bind, describe, execute), for the two statements every
   * transaction has.
   */
  async executeSimple(statement: 'begin' | 'commit' | 'rollback'): Promise<void> {
    this.inTransaction = statement === 'begin'
    await this.client.exec(statement)
  }

  // biome-ignore lint/correctness/useYield: PGlite cannot stream; the method exists to satisfy the interface
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming queries')
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection
  private tail: Promise<void> = Promise.resolve()
  private release: (() => void) | null = null

  constructor(
    private readonly client: PGliteInterface,
    private readonly closeClient: boolean,
  ) {
    this.connection = new PGliteConnection(client)
  }

  async init(): Promise<void> {
    // Loaded here, not at the top: a PostgreSQL deployment never loads PGlite (database.ts).
    const { protocol, parse } = await import('@electric-sql/pglite')
    // `query` waits for a PGlite made with `new PGlite()` to be ready; the protocol calls do not.
    await this.client.waitReady
    this.connection.statements = preparedStatements(this.client, {
      serialize: protocol.serialize,
      parseResults: parse.parseResults,
    })
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.tail
    let release: () => void = () => {}
    this.tail = new Promise<void>((resolve) => {
      release = resolve
    })
    await previous
    this.release = release
    return this.connection
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).executeSimple('begin')
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).executeSimple('commit')
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).executeSimple('rollback')
  }

  async releaseConnection(): Promise<void> {
    const release = this.release
    this.release = null
    release?.()
  }

  async destroy(): Promise<void> {
    if (this.closeClient && !this.client.closed) await this.client.close()
  }
}

export const pgliteDialect = (client: PGliteInterface, options: { closeClient: boolean }): Dialect => ({
  createAdapter: () => new PostgresAdapter(),
  createDriver: () => new PGliteDriver(client, options.closeClient),
  // biome-ignore lint/suspicious/noExplicitAny: the introspector is schema-agnostic
  createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db),
  createQueryCompiler: () => new PostgresQueryCompiler(),
})
