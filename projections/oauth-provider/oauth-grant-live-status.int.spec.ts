/// The migration that gives every live grant's row one status (oauth-provider.table.ts), on a
/// database the previous version left behind: rows that said `code-issued` (live, exchanged or not)
/// and `active` (written while exchanges were projected) say `live`, as the projection now writes
/// them; revoked rows stay revoked.

import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { databaseBefore, toLatest } from '../../tests/support/migration-steps.js'

const MIGRATION = '2026-11-29T23:40:00Z_oauth-grant-live-status'

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema
let db: Kysely<any>
beforeEach(async () => {
  db = await databaseBefore(MIGRATION)
})
afterEach(() => db.destroy())

it('turns code-issued and active rows into live ones and leaves revoked rows as they are', async () => {
  const updatedAt = '2026-11-01T10:00:00.000Z'
  await sql`
    insert into oauth_grants (grant_id, user_id, client_id, session_id, scopes, status, created_at, updated_at)
    values ('issued', 'u1', 'c1', 's1', 'openid', 'code-issued', now(), ${updatedAt}),
           ('old', 'u1', 'c1', 's2', 'openid', 'active', now(), ${updatedAt}),
           ('gone', 'u2', 'c1', 's3', 'openid', 'revoked', now(), ${updatedAt})`.execute(db)

  await toLatest(db)

  const { rows } = await sql<{ grant_id: string; status: string; updated_at: Date }>`
    select grant_id, status, updated_at from oauth_grants order by grant_id`.execute(db)
  expect(rows.map((row) => [row.grant_id, row.status, row.updated_at.toISOString()])).toEqual([
    ['gone', 'revoked', updatedAt],
    ['issued', 'live', updatedAt],
    ['old', 'live', updatedAt],
  ])
})
