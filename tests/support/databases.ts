/// Fresh, migrated databases for int tests: a copy of the run's PostgreSQL template database, or a
/// clone of a migrated in-memory PGlite. Every one is independent and is removed when closed.

import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { Kysely } from 'kysely'
import pg from 'pg'
import { afterAll, describe, inject } from 'vitest'
import { type OpenDatabase, openDatabase } from '../../infra/db/database.js'
import { migrateToLatest } from '../../infra/db/migrate.js'
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
      await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`)
    },
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

// One migrated PGlite per test file (module state is per file); each test gets a clone, which is
// much cheaper than creating and migrating a new instance.
let template: Promise<PGlite> | undefined
// Clones read the template's data directory, so they are taken one at a time.
let cloning: Promise<unknown> = Promise.resolve()
const openClones = new Set<PGlite>()

const createTemplate = async (): Promise<PGlite> => {
  const client = await PGlite.create()
  const db = new Kysely({ dialect: pgliteDialect(client, { closeClient: false }) })
  await migrateToLatest(db)
  await db.destroy()
  return client
}

/** A new in-memory PGlite with every migration applied; `close()` closes it. */
export const freshPglite = async (): Promise<OpenDatabase> => {
  template ??= createTemplate()
  const source = await template
  const cloned = cloning.then(() => source.clone())
  cloning = cloned.catch(() => {})
  const client = await cloned
  // `clone()` is typed as the interface; the dialect needs the class it always is.
  if (!(client instanceof PGlite)) throw new Error('PGlite.clone() did not return a PGlite')
  openClones.add(client)
  const database = await openDatabase({ kind: 'pglite-client', client })
  return {
    ...database,
    async close() {
      openClones.delete(client)
      await database.close()
    },
  }
}

export const freshDatabase = (kind: DatabaseKind): Promise<OpenDatabase> =>
  kind === 'pglite' ? freshPglite() : freshPostgres()

// Registered when a test file imports this module, so it runs once that file is done: a PGlite
// left open (the template, or a clone a failing test did not close) would keep the worker busy.
afterAll(async () => {
  const clients = [...openClones, ...(template ? [await template.catch(() => null)] : [])]
  openClones.clear()
  template = undefined
  await Promise.all(clients.map((client) => (client && !client.closed ? client.close() : undefined)))
})

/** Declares `body` once per database kind, in a describe block named after the kind. */
export const describeEachDatabase = (
  name: string,
  body: (fresh: () => Promise<OpenDatabase>, kind: DatabaseKind) => void,
  kinds: readonly DatabaseKind[] = databaseKinds,
): void => {
  for (const kind of kinds) describe(`${name} (${kind})`, () => body(() => freshDatabase(kind), kind))
}
