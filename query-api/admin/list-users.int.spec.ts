/// list-users' searches by part of an email or a name use the trigram indexes on PostgreSQL and
/// PGlite alike, once the users table is large enough for the planner to prefer an index.

import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { OpenDatabase } from '../../infra/db/database.js'
import type { Database } from '../../projections/database.js'
import { describeEachDatabase } from '../../tests/support/databases.js'
import { type ListUsersQuery, listUsers, listUsersStatements } from './list-users.js'

const USERS = 5_000

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
})
