import { sql } from 'kysely'
import { describe, expect, test } from 'vitest'
import { freshPostgres } from '../../tests/support/databases.js'
import { openDatabase } from './database.js'
import { loadPg } from './load-pg.js'
import { nameable, namingClient } from './pg-prepared.js'

/** The statements this connection holds prepared under a name (the view's own query is unnamed). */
const preparedOn = async (db: Awaited<ReturnType<typeof openDatabase>>['db']) =>
  (
    await sql<{
      statement: string
    }>`select statement from pg_prepared_statements where 1 = ${1} or ${'*'} = ''`.execute(db)
  ).rows.map((row) => row.statement)

describe('named prepared statements on PostgreSQL', () => {
  test('only queries and changes of rows without a *', () => {
    expect(nameable('select id from users where id = $1')).toBe(true)
    expect(nameable(' WITH moved as (update t set v = 1) select 1')).toBe(true)
    expect(nameable('select * from users where id = $1')).toBe(false)
    expect(nameable('select "users".* from users')).toBe(false)
    expect(nameable('select count(*) from users')).toBe(false)
    expect(nameable('begin')).toBe(false)
    expect(nameable('create table t (id int)')).toBe(false)
  })

  test('a statement is prepared once per connection and keeps working when its table gains a column', async () => {
    const fresh = await freshPostgres()
    // One connection, so the statements it prepared are the ones the view shows.
    const named = await openDatabase({ kind: 'postgres', url: fresh.url, poolSize: 1 })
    const plain = await openDatabase({
      kind: 'postgres',
      url: fresh.url,
      poolSize: 1,
      preparedStatements: false,
    })
    try {
      await sql`create table things (id int primary key, label text)`.execute(named.db)
      await sql`insert into things (id, label) values (${1}, ${'one'}), (${2}, ${'two'})`.execute(named.db)
      const byId = (db: typeof named.db, id: number) =>
        sql<{ label: string }>`select label from things where id = ${id}`.execute(db)
      for (const id of [1, 2, 1, 2, 1, 2, 1]) await byId(named.db, id)
      const everything = await sql`select * from things where id = ${1}`.execute(named.db)
      expect(everything.rows).toEqual([{ id: 1, label: 'one' }])

      const prepared = await preparedOn(named.db)
      expect(prepared.filter((text) => text.includes('select label from things'))).toHaveLength(1)
      expect(prepared.some((text) => text.includes('select * from things'))).toBe(false)

      // A rolling deploy's migration adds a column: the named statement is planned again, and the
      // unnamed `select *` answers with the new column.
      await sql`alter table things add column note text`.execute(plain.db)
      expect((await byId(named.db, 2)).rows).toEqual([{ label: 'two' }])
      expect((await sql`select * from things where id = ${1}`.execute(named.db)).rows).toEqual([
        { id: 1, label: 'one', note: null },
      ])

      for (const id of [1, 2]) await byId(plain.db, id)
      expect(await preparedOn(plain.db)).toEqual([])

      // Beyond the limit, texts go unnamed: a backend holds a bounded number of plans.
      const pg = loadPg()
      const pool = new pg.Pool({ connectionString: fresh.url, max: 1, Client: namingClient(pg, 2) })
      try {
        for (const column of ['id', 'label', 'note', 'id, label'])
          await pool.query(`select ${column} from things where id = $1`, [1])
        const held = await pool.query<{ statement: string }>(
          'select statement from pg_prepared_statements /* unnamed */',
        )
        expect(held.rows.map((row) => row.statement).sort()).toEqual([
          'select id from things where id = $1',
          'select label from things where id = $1',
        ])
      } finally {
        await pool.end()
      }
    } finally {
      await named.close()
      await plain.close()
      await fresh.close()
    }
  })
})
