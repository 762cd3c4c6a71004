/// The migration that moves last seen off the `users` row (last-seen.ts) on a database the previous
/// version left behind: everyone seen keeps their time, in `user_last_seen`; the never seen get no
/// row; the column and its index are gone from `users`.

import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { databaseBefore, toLatest } from '../../tests/support/migration-steps.js'

const MIGRATION = '2026-11-29T13:10:00Z_user-last-seen'

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema
let db: Kysely<any>
beforeEach(async () => {
  db = await databaseBefore(MIGRATION)
})
afterEach(() => db.destroy())

it('keeps every last-seen time in its own table and drops the column and its index', async () => {
  await sql`
    insert into users (id, email, name, email_verified, banned, created_at, updated_at, last_seen_at)
    values ('seen', 'seen@x.test', 'Seen', false, false, now(), now(), '2026-11-01T10:00:00Z'),
           ('also', 'also@x.test', 'Also', false, false, now(), now(), '2026-10-05T08:30:00.123Z'),
           ('never', 'never@x.test', 'Never', false, false, now(), now(), null)`.execute(db)

  await toLatest(db)

  const { rows } = await sql<{ user_id: string; last_seen_at: Date }>`
    select user_id, last_seen_at from user_last_seen order by user_id`.execute(db)
  expect(rows.map((row) => [row.user_id, row.last_seen_at.toISOString()])).toEqual([
    ['also', '2026-10-05T08:30:00.123Z'],
    ['seen', '2026-11-01T10:00:00.000Z'],
  ])
  const { rows: left } = await sql<{ name: string }>`
    select column_name as name from information_schema.columns
    where table_name = 'users' and column_name = 'last_seen_at'
    union all select indexname from pg_indexes where indexname = 'users_last_seen'`.execute(db)
  expect(left).toEqual([])
})
