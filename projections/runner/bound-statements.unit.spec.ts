/// The texts made once per shape are the very texts Kysely compiles for the same writes, with the
/// same parameters in the same order: the batched path (statement-shape.ts) merges them as before.

import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely'
import { describe, expect, it } from 'vitest'
import type { Database } from '../database.js'
import { bound, deleteRows, insertRow, type Trx, updateRows } from './bound-statements.js'

const kysely = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

/** What a write sends, caught instead of run. */
const sent = async (write: (trx: Trx) => Promise<unknown>) => {
  const queries: CompiledQuery[] = []
  const trx: Trx = {
    executeQuery: async (query) => {
      queries.push('compile' in query ? query.compile() : query)
      return { rows: [] }
    },
  }
  await write(trx)
  return queries.map(({ sql, parameters }) => ({ sql, parameters }))
}

const compiled = (query: { compile(): CompiledQuery }) => {
  const { sql, parameters } = query.compile()
  return [{ sql, parameters }]
}

describe('statements bound to their values', () => {
  const at = new Date('2030-01-01T00:00:00.000Z')

  it('inserts a row as Kysely does, leaving out what is undefined', async () => {
    const row = { id: 'o-1', name: 'Org', slug: 'org', logo: undefined, metadata: null, created_at: at }
    expect(await sent((trx) => insertRow(trx, 'organizations', row))).toEqual(
      compiled(kysely.insertInto('organizations').values(row)),
    )
    // Another set of columns is another text.
    const fewer = { id: 'o-2', name: 'Org', slug: 'org2', logo: 'l', metadata: null, created_at: at }
    expect(await sent((trx) => insertRow(trx, 'organizations', fewer))).toEqual(
      compiled(kysely.insertInto('organizations').values(fewer)),
    )
  })

  it('inserts a row unless one is there by a unique column, as Kysely does', async () => {
    const row = { id: 'o-3', name: 'Org', slug: 'org3', logo: null, metadata: null, created_at: at }
    expect(await sent((trx) => insertRow(trx, 'organizations', row, 'id'))).toEqual(
      compiled(
        kysely
          .insertInto('organizations')
          .values(row)
          .onConflict((oc) => oc.column('id').doNothing()),
      ),
    )
  })

  it('updates and deletes by keys as Kysely does', async () => {
    const set = { expires_at: at, updated_at: at, active_team_id: undefined }
    expect(
      await sent((trx) =>
        updateRows(trx, 'sessions', set, { user_id: 'u-1', active_organization_id: 'o-1' }),
      ),
    ).toEqual(
      compiled(
        kysely
          .updateTable('sessions')
          .set(set)
          .where('user_id', '=', 'u-1')
          .where('active_organization_id', '=', 'o-1'),
      ),
    )
    expect(await sent((trx) => deleteRows(trx, 'sessions', { id: 's-1' }))).toEqual(
      compiled(kysely.deleteFrom('sessions').where('id', '=', 's-1')),
    )
  })

  it('keeps a key whose value is undefined, matching no row as Kysely does, never widening the write', async () => {
    const where = { user_id: 'u-1', active_organization_id: undefined }
    expect(await sent((trx) => updateRows(trx, 'sessions', { active_team_id: null }, where))).toEqual(
      compiled(
        kysely
          .updateTable('sessions')
          .set({ active_team_id: null })
          .where('user_id', '=', 'u-1')
          .where('active_organization_id', '=', undefined as unknown as string),
      ),
    )
    expect(await sent((trx) => deleteRows(trx, 'sessions', { user_id: undefined }))).toEqual(
      compiled(kysely.deleteFrom('sessions').where('user_id', '=', undefined as unknown as string)),
    )
  })

  it('refuses a write by keys without keys rather than touch every row', async () => {
    await expect(sent((trx) => deleteRows(trx, 'sessions', {}))).rejects.toThrow(/without keys/)
  })

  it("numbers a template's values as the sql tag does", async () => {
    const write = (id: string, seen: Date) =>
      bound`insert into user_last_seen (user_id, last_seen_at) values (${id}::text, ${seen}::timestamptz)`
    const { sql: text, parameters } = write('u-1', at)
    const tagged = sql`insert into user_last_seen (user_id, last_seen_at) values (${'u-1'}::text, ${at}::timestamptz)`
    expect({ sql: text, parameters }).toEqual(compiled({ compile: () => tagged.compile(kysely) })[0])
    // The text is made once per place in the code.
    expect(write('u-2', at).sql).toBe(text)
  })
})
