/// The embedded database as Tessera opens it: PGlite with a small buffer pool, since its memory is
/// the server process's own and never shrinks, and with the extensions the read models need.

import { sql } from 'kysely'
import { afterEach, expect, it } from 'vitest'
import { type OpenDatabase, openDatabase } from './database.js'

let database: OpenDatabase | undefined
afterEach(async () => {
  await database?.close()
  database = undefined
})

it('opens PGlite with 32 MB of shared buffers (not PostgreSQL default 128 MB) and pg_trgm available', async () => {
  database = await openDatabase({ kind: 'pglite', dataDir: null })
  const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(database.db)
  expect(rows[0]?.shared_buffers).toBe('32MB')
  await sql`create extension if not exists pg_trgm`.execute(database.db)
  const similarity = await sql<{ s: number }>`select similarity('tessera', 'tesera') as s`.execute(
    database.db,
  )
  expect(similarity.rows[0]?.s).toBeGreaterThan(0.3)
})
