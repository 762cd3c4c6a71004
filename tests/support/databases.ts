/// Fresh, migrated databases for int tests: a copy of the run's PostgreSQL template database, or a
/// clone of a migrated in-memory PGlite. Every one is independent and is removed when closed.

import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { Kysely } from 'kysely'
import pg from 'pg'
import { afterAll, describe, inject } from 'vitest'
import {
  migrateTessera as migrateToLatest,
  type TesseraDatabase as OpenDatabase,
  openTesseraDatabase as openDatabase,
} from '../../app/database.js'
import { pgliteExtensions } from '../../infra/db/database.js'
import { pgliteDialect } from '../../infra/db/pglite-dialect.js'
import { withDatabase } from './postgres-url.js'

export const databaseKinds = ['pglite', 'postgres'] as const
export type DatabaseKind = (typeof databaseKinds)[number]

export type PostgresDatabase = OpenDatabase & { url: string }

/** A new database copied from the migrated template; `close()` drops it. */
export const freshPostgres = async (): Promise<PostgresDatabase> => {
  const adminUrl = inject('postgresAdminUrl')
  const name = `tessera_test_${randomBytes(8).toString('hex')}`
  await adminQuery(adminUrl, `create database "${name}" template "${inject('postgresTemplate')}"`)
  const url = withDatabase(adminUrl, name)
  const database = await openDatabase({ kind: 'postgres', url })
  return {
    ...database,
    url,
    async close() {
      await database.close()
      await dropDatabase(adminUrl, name)
    },
  }
}

// A closed pool's connections leave the server a moment later, and DROP DATABASE waits for them.
// FORCE only for connections a test leaked: it kills them, and their clients then report an error.
const dropDatabase = async (adminUrl: string, name: string): Promise<void> => {
  try {
    await adminQuery(adminUrl, `drop database if exists "${name}"`)
  } catch {
    await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`)
  }
}

const adminQuery = async (adminUrl: string, statement: string): Promise<void> => {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

// One migrated PGlite per test file (module state is per file), kept as a dump of its data
// directory; each test loads its own copy. That is what `PGlite.clone()` does, minus dumping the
// same template again for every copy.
let template: Promise<Blob> | undefined
const openCopies = new Set<PGlite>()

const createTemplate = async (): Promise<Blob> => {
  const client = await PGlite.create({ extensions: pgliteExtensions })
  try {
    const db = new Kysely({ dialect: pgliteDialect(client, { closeClient: false }) })
    await migrateToLatest(db)
    await db.destroy()
    return await client.dumpDataDir('none')
  } finally {
    await client.close()
  }
}

/** A new in-memory PGlite with every migration applied; `close()` closes it. */
export const freshPglite = async (): Promise<OpenDatabase> => {
  template ??= createTemplate()
  const client = await PGlite.create({ loadDataDir: await template, extensions: pgliteExtensions })
  openCopies.add(client)
  const database = await openDatabase({ kind: 'pglite-client', client })
  return {
    ...database,
    async close() {
      openCopies.delete(client)
      await database.close()
    },
  }
}

export const freshDatabase = (kind: DatabaseKind): Promise<OpenDatabase> =>
  kind === 'pglite' ? freshPglite() : freshPostgres()

// Registered when a test file imports this module, so it runs once that file is done: a PGlite a
// failing test left open would keep the worker busy.
afterAll(async () => {
  const clients = [...openCopies]
  openCopies.clear()
  await Promise.all(clients.map((client) => (client.closed ? undefined : client.close())))
})

/** Declares `body` once per database kind, in a describe block named after the kind. */
export const describeEachDatabase = (
  name: string,
  body: (fresh: () => Promise<OpenDatabase>, kind: DatabaseKind) => void,
  kinds: readonly DatabaseKind[] = databaseKinds,
): void => {
  for (const kind of kinds) describe(`${name} (${kind})`, () => body(() => freshDatabase(kind), kind))
}
