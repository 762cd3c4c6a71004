/// The PGlite driver's prepared statements answer exactly as `PGlite.query` does: the same values
/// in, the same rows out, the same errors, through transactions, schema changes and a full cache.

import { PGlite } from '@electric-sql/pglite'
import { Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { pgliteDialect } from './pglite-dialect.js'

let client: PGlite
// biome-ignore lint/suspicious/noExplicitAny: a scratch table of this test only
let db: Kysely<any>

beforeEach(async () => {
  client = await PGlite.create()
  db = new Kysely({ dialect: pgliteDialect(client, { closeClient: true }) })
  await sql`create table things (
    id text primary key, n int8, flag boolean, at timestamptz, doc jsonb, raw bytea, tags text[], note text
  )`.execute(db)
})
afterEach(async () => {
  await db.destroy()
})

const preparedCount = async (): Promise<number> => {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_prepared_statements where name like 'tessera_%'`,
  )
  return rows[0]?.n ?? 0
}

describe('prepared statements on PGlite', () => {
  it('reads back every kind of value as PGlite.query does, and prepares each text once', async () => {
    const before = await preparedCount()
    const rows = [
      [
        'a',
        9_007_199_254_740_993n,
        true,
        new Date('2026-01-02T03:04:05.678Z'),
        { k: [1, 'x'] },
        new Uint8Array([0, 255, 7]),
        ['p', 'q "r"'],
        null,
      ],
      ['b', 0, false, new Date(0), ['list'], new Uint8Array([]), [], "it's"],
    ] as const
    for (const [id, n, flag, at, doc, raw, tags, note] of rows)
      await sql`insert into things (id, n, flag, at, doc, raw, tags, note)
        values (${id}, ${n}, ${flag}, ${at}, ${JSON.stringify(doc)}, ${raw}, ${tags}, ${note})`.execute(db)
    const viaDriver = await sql`select * from things order by id`.execute(db)
    const viaQuery = await client.query('select * from things order by id')
    expect(viaDriver.rows).toEqual(viaQuery.rows)
    expect(viaDriver.rows[0]).toMatchObject({
      n: 9_007_199_254_740_993n,
      flag: true,
      at: new Date('2026-01-02T03:04:05.678Z'),
      doc: { k: [1, 'x'] },
      raw: new Uint8Array([0, 255, 7]),
      tags: ['p', 'q "r"'],
      note: null,
    })
    expect(await preparedCount()).toBe(before + 2)
    await sql`select * from things order by id`.execute(db)
    expect(await preparedCount()).toBe(before + 2)
  })

  it('reports affected rows and fails on a broken constraint with PostgreSQL code, leaving the statement usable', async () => {
    const insert = (id: string) => db.insertInto('things').values({ id, n: 1 }).execute()
    await insert('x')
    await expect(insert('x')).rejects.toMatchObject({ code: '23505' })
    await insert('y')
    const updated = await db.updateTable('things').set({ n: 2 }).where('n', '=', 1).executeTakeFirst()
    expect(updated.numUpdatedRows).toBe(2n)
  })

  it('keeps a statement first prepared inside a transaction that rolled back', async () => {
    const find = (id: string) => db.selectFrom('things').select('id').where('id', '=', id).execute()
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('things').values({ id: 'gone' }).execute()
        await trx.selectFrom('things').select('id').where('id', '=', 'gone').execute()
        throw new Error('roll back')
      })
      .catch(() => {})
    expect(await find('gone')).toEqual([])
    await db.insertInto('things').values({ id: 'kept' }).execute()
    expect(await find('kept')).toEqual([{ id: 'kept' }])
  })

  it('prepares a text again after a table changed under it: at once outside a transaction, on the next call inside one', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the scratch table again
    const all = (q: Kysely<any> = db) => q.selectFrom('things').selectAll().where('id', '=', 'c').execute()
    await db.insertInto('things').values({ id: 'c' }).execute()
    expect(Object.keys((await all())[0] ?? {})).not.toContain('extra')
    await sql`alter table things add column extra text default 'e'`.execute(db)
    expect((await all())[0]).toMatchObject({ id: 'c', extra: 'e' })

    // Inside a transaction the failure has aborted it, as PostgreSQL's own prepared statements do.
    await sql`alter table things add column more text default 'm'`.execute(db)
    await expect(db.transaction().execute((trx) => all(trx))).rejects.toMatchObject({ code: '0A000' })
    const again = await db.transaction().execute((trx) => all(trx))
    expect(again[0]).toMatchObject({ id: 'c', extra: 'e', more: 'm' })
  })

  it('keeps at most 400 texts prepared, closing the least recently used', async () => {
    for (let i = 0; i < 450; i++) await sql.raw(`select ${i} as n`).execute(db)
    expect(await preparedCount()).toBeLessThanOrEqual(400)
    const first = await sql.raw<{ n: number }>('select 0 as n').execute(db)
    expect(first.rows).toEqual([{ n: 0 }])
    expect(await preparedCount()).toBeLessThanOrEqual(400)
  })
})
