import { sql } from 'kysely'
import { expect, test } from 'vitest'
import { openDatabase } from '../../infra/db/database.js'
import { freshPostgres } from '../../tests/support/databases.js'
import type { Database } from '../database.js'
import { findUserStandings } from './user-standing.js'

test('the standing read keeps a generic plan: it is not planned again on every second step', async () => {
  const fresh = await freshPostgres()
  // One connection, so the read's prepared statement is the one the view shows.
  const one = await openDatabase<Database>({ kind: 'postgres', url: fresh.url, poolSize: 1 })
  try {
    for (let read = 0; read < 8; read += 1) await findUserStandings(one.db, [`user-${read}`])
    // PostgreSQL makes five custom plans before it weighs a generic one.
    const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
      select generic_plans::text, custom_plans::text from pg_prepared_statements
      where statement like ${'%tessera_scim_deactivations%'}`.execute(one.db)
    expect(rows).toEqual([{ generic_plans: '3', custom_plans: '5' }])
  } finally {
    await one.close()
    await fresh.close()
  }
})
