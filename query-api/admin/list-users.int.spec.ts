/// list-users' searches by part of an email or a name use the trigram indexes on PostgreSQL and
/// PGlite alike, once the users table is large enough for the planner to prefer an index.

import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { OpenDatabase } from '../../infra/db/database.js'
import type { Database } from '../../projections/database.js'
import { describeEachDatabase } from '../../tests/support/databases.js'
import { type ListUsersQuery, listUsers, listUsersStatements } from './list-users.js'

const USERS = 5_000

const fail = (): never => {
  throw new Error('the query was refused')
}

const planOf = async (statement: { explain(): Promise<Record<string, unknown>[]> }) =>
  (await statement.explain()).map((row) => String(row['QUERY PLAN'])).join('\n')

describeEachDatabase('list-users search', (fresh) => {
  let database: OpenDatabase<Database>
  beforeEach(async () => {
    database = await fresh()
    // Rows straight into the read model: the plan depends on the table's size, not on the log. No
    // ANALYZE: PGlite never runs one by itself, so the planner must choose the index without it.
    await sql`
      insert into users (id, email, name, email_verified, banned, created_at, updated_at)
      select 'user-' || g, 'person' || g || '@example' || (g % 7) || '.com', 'Person ' || g,
             false, false, now() - g * interval '1 second', now()
      from generate_series(1, ${USERS}) as g`.execute(database.db)
  })
  afterEach(() => database.close())

  const explainBoth = async (query: ListUsersQuery) => {
    const statements = listUsersStatements(database.db, query)
    if (!statements) throw new Error('the query was refused')
    return { page: await planOf(statements.page), count: await planOf(statements.count) }
  }

  it('finds a part of an email in any case through the email trigram index', async () => {
    const query: ListUsersQuery = { searchField: 'email', searchValue: 'SON1234@', limit: 20 }
    const plans = await explainBoth(query)
    expect(plans.page).toContain('users_email_trgm')
    expect(plans.count).toContain('users_email_trgm')
    const found = await listUsers(database.db, query)
    expect(found.total).toBe(1)
    expect(found.users.map((user) => user.email)).toEqual(['person1234@example2.com'])
  })

  it('finds a part of a name through the name trigram index; starts-with finds a beginning', async () => {
    const contains: ListUsersQuery = { searchField: 'name', searchValue: 'son 123', limit: 20 }
    const plans = await explainBoth(contains)
    expect(plans.page).toContain('users_name_trgm')
    expect(plans.count).toContain('users_name_trgm')
    const found = await listUsers(database.db, contains)
    // Person 123 and Person 1230 to 1239.
    expect(found.total).toBe(11)
    expect(found.users.every((user) => user.name.startsWith('Person 123'))).toBe(true)

    const startsWith: ListUsersQuery = {
      ...contains,
      searchValue: 'person 4999',
      searchOperator: 'starts_with',
    }
    expect((await listUsers(database.db, startsWith)).users.map((user) => user.name)).toEqual(['Person 4999'])
  })

  it('with statistics too, takes the matches through the index and still pages in order', async () => {
    // Once ANALYZE has run, a contains-search is guessed to match ~1% of users; on 100,000 users the
    // page alone then walked created_at's index filtering every row (14 ms for a rare name, against
    // 0.5 ms through the trigram index). The matches are now taken first, then sorted.
    await sql`analyze users`.execute(database.db)
    const query: ListUsersQuery = { searchField: 'name', searchValue: 'son 432', limit: 5, offset: 2 }
    const plans = await explainBoth(query)
    expect(plans.page).toContain('users_name_trgm')
    expect(plans.page).not.toContain('users_created_at')
    // Person 432 and 4320 to 4329, oldest first (a higher number was created earlier).
    const found = await listUsers(database.db, query)
    expect(found.total).toBe(11)
    expect(found.users.map((user) => user.name)).toEqual([
      'Person 4327',
      'Person 4326',
      'Person 4325',
      'Person 4324',
      'Person 4323',
    ])
    // Without a search the page is still read in created_at's order from its index.
    const all = listUsersStatements(database.db, { limit: 20 })
    expect(all && (await planOf(all.page))).toContain('users_created_at')
  })

  it('sorts by last seen from its own table: recent first, never seen last, paged, through its index', async () => {
    // One in three seen, the higher numbers longer ago; a few of them at one time, ordered by id.
    await sql`
      insert into user_last_seen (user_id, last_seen_at)
      select 'user-' || g, timestamptz '2026-11-01' - least(g, 3000) * interval '1 minute'
      from generate_series(3, ${USERS}, 3) as g`.execute(database.db)
    await sql`analyze`.execute(database.db)
    const recent: ListUsersQuery = { sortBy: 'lastSeenAt', sortDirection: 'desc' }
    const plan = await planOf((listUsersStatements(database.db, { ...recent, limit: 20 }) ?? fail()).page)
    expect(plan).toContain('user_last_seen_order')
    expect(plan).toContain('Merge Append')

    const all = await listUsers(database.db, recent)
    expect(all.total).toBe(USERS)
    const seen = all.users.filter((user) => user.last_seen_at !== null)
    expect(seen).toHaveLength(Math.floor(USERS / 3))
    // Every one seen before every one never seen; the seen newest first, ties and the never seen by id.
    expect(all.users.slice(0, seen.length)).toEqual(seen)
    const key = (user: (typeof all.users)[number]) => [-(user.last_seen_at?.getTime() ?? 0), user.id] as const
    const sorted = [...all.users].sort((a, b) => {
      const [x, y] = [key(a), key(b)]
      if (a.last_seen_at === null || b.last_seen_at === null)
        return Number(a.last_seen_at === null) - Number(b.last_seen_at === null) || (a.id < b.id ? -1 : 1)
      return x[0] - y[0] || (x[1] < y[1] ? -1 : 1)
    })
    expect(all.users.map((user) => user.id)).toEqual(sorted.map((user) => user.id))
    expect(seen[0]?.id).toBe('user-3')
    expect(all.users.at(-1)?.last_seen_at).toBeNull()
    // A page across the boundary between the seen and the never seen.
    const page = await listUsers(database.db, { ...recent, limit: 10, offset: seen.length - 4 })
    expect(page.users.map((user) => user.id)).toEqual(
      all.users.slice(seen.length - 4, seen.length + 6).map((u) => u.id),
    )
    // A filter on it reads the same table; most recent last, ascending.
    const before = await listUsers(database.db, {
      filterField: 'lastSeenAt',
      filterOperator: 'lt',
      filterValue: '2026-10-30T00:00:00Z',
      sortBy: 'lastSeenAt',
      sortDirection: 'asc',
    })
    expect(before.users.length).toBeGreaterThan(0)
    expect(before.total).toBe(before.users.length)
    expect(
      before.users.every((user) => (user.last_seen_at?.getTime() ?? Infinity) < Date.parse('2026-10-30')),
    ).toBe(true)
    expect(before.users[0]?.last_seen_at?.toISOString()).toBe('2026-10-29T22:00:00.000Z')
  })
})
