/// Opens the database that holds the event log and the read models: PostgreSQL when a URL is
/// given, embedded PGlite (in a directory, or in memory) otherwise.

import type { PGliteInterface } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { Kysely, PostgresDialect } from 'kysely'
import { POSTGRES_NOTIFY_CHANNEL } from '../event-store/sql-event-store.js'
import { loadPg } from './load-pg.js'
import { namingClient } from './pg-prepared.js'
import { pgliteDialect } from './pglite-dialect.js'
import { initialisePgliteDirectory } from './pglite-initdb.js'

export type DatabaseTarget =
  /** `preparedStatements`: name the statements that allow it (pg-prepared.ts); on unless false. */
  | { kind: 'postgres'; url: string; poolSize?: number; preparedStatements?: boolean }
  | { kind: 'pglite'; dataDir: string | null }
  /** An already open PGlite (tests clone one template per test). */
  | { kind: 'pglite-client'; client: PGliteInterface }

/** An open database; `Schema` is the table layout its user knows (the read models, for Tessera). */
// biome-ignore lint/suspicious/noExplicitAny: a leaf adapter does not know the caller's tables
export type OpenDatabase<Schema = any> = {
  db: Kysely<Schema>
  kind: 'postgres' | 'pglite'
  /** Calls `onCommit` with the notification's payload when events commit; PostgreSQL only. */
  listenForCommits?: (onCommit: (payload: string) => void) => Promise<() => Promise<void>>
  close(): Promise<void>
}

export const openDatabase = async <Schema>(target: DatabaseTarget): Promise<OpenDatabase<Schema>> => {
  if (target.kind === 'postgres')
    return openPostgres<Schema>(target.url, target.poolSize ?? 10, target.preparedStatements !== false)
  // PGlite is loaded only when it is used: a PostgreSQL deployment does not carry it in memory.
  const client = target.kind === 'pglite-client' ? target.client : await openPglite(target.dataDir)
  const db = new Kysely<Schema>({ dialect: pgliteDialect(client, { closeClient: true }) })
  return { db, kind: 'pglite', close: () => db.destroy() }
}

/**
 * The PostgreSQL extensions the read models use (pg_trgm: trigram indexes for list-users' searches).
 * PGlite bundles them but loads only those named when it starts, so every PGlite that opens a
 * Tessera database must be created with these.
 */
export const pgliteExtensions = { pg_trgm }

/**
 * PGlite keeps PostgreSQL's default of 128 MB of shared buffers, inside the process's own memory
 * (WebAssembly memory never shrinks). An embedded database of one application does not need that
 * much: its tables stay in the operating system's page cache behind a smaller buffer pool, so
 * reads that miss the pool cost a system call, not a disk read.
 */
const PGLITE_SHARED_BUFFERS = '32MB'

const openPglite = async (dataDir: string | null): Promise<PGliteInterface> => {
  const { PGlite } = await import('@electric-sql/pglite')
  if (dataDir && !dataDir.includes('://')) await initialisePgliteDirectory(dataDir)
  return PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    extensions: pgliteExtensions,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  })
}

const openPostgres = <Schema>(url: string, poolSize: number, named: boolean): OpenDatabase<Schema> => {
  const pg = loadPg()
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    ...(named ? { Client: namingClient(pg) } : {}),
  })
  // An idle pooled connection the server ends (restart, failover, pg_terminate_backend) is reported
  // here; unheard, the 'error' event would crash the process. The pool has already dropped that
  // client and the next query opens a new one.
  pool.on('error', () => {})
  // The same for a connection that is checked out but between queries (a transaction awaiting the
  // application, a held advisory lock): with no listener its 'error' event would end the process.
  // The next query on it fails instead, and the pool discards it when it is released.
  pool.on('connect', (client) => client.on('error', () => {}))
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) })
  return {
    db,
    kind: 'postgres',
    async listenForCommits(onCommit) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      client.on('notification', (message) => onCommit(message.payload ?? ''))
      // A lost LISTEN connection only delays wake-ups; the projector also polls.
      client.on('error', () => {})
      await client.query(`listen ${POSTGRES_NOTIFY_CHANNEL}`)
      return async () => {
        await client.end().catch(() => {})
      }
    },
    close: () => db.destroy(),
  }
}
