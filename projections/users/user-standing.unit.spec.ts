import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely'
import { expect, test } from 'vitest'
import type { Database } from '../database.js'
import { coalescedUserStandings, findUserStandings } from './user-standing.js'

// The statements sent and how often one was compiled, without a database.
const recording = () => {
  const sent: { sql: string; parameters: readonly unknown[] }[] = []
  let compiled = 0
  class CountingCompiler extends PostgresQueryCompiler {
    override compileQuery(...args: Parameters<PostgresQueryCompiler['compileQuery']>) {
      compiled += 1
      return super.compileQuery(...args)
    }
  }
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new CountingCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') sent.push({ sql: event.query.sql, parameters: event.query.parameters })
    },
  })
  return { db, sent, compiled: () => compiled }
}

test("a person's standing is one statement with the people's ids as its one parameter, built once per database", async () => {
  const { db, sent, compiled } = recording()
  expect(await findUserStandings(db, ['u-1'])).toEqual(new Map())
  await findUserStandings(db, ['u-2', 'u-3'])
  expect(sent.map(({ parameters }) => parameters)).toEqual([[['u-1']], [['u-2', 'u-3']]])
  expect(sent[1]?.sql).toBe(sent[0]?.sql)
  expect(sent[0]?.sql).toMatch(
    /^select "users"\."id", .* from "users" where users\.id = any\(\(select \$1::text\[\]\)::text\[\]\)$/,
  )
  expect(sent[0]?.sql).toContain(
    'exists (select 1 from tessera_scim_deactivations d where d.user_id = users.id)',
  )
  // Building it (its twenty column references) cost more than sending it: the second reuses the text.
  expect(compiled()).toBe(1)
  const other = recording()
  await findUserStandings(other.db, ['u-4'])
  expect(other.sent[0]?.sql).toBe(sent[0]?.sql)
})

test('standings asked in one turn of the event loop are read in one statement, each answered apart', async () => {
  const { db, sent } = recording()
  const standingOf = coalescedUserStandings(db)
  const answers = await Promise.all([standingOf('u-1'), standingOf('u-2'), standingOf('u-1')])
  expect(answers).toEqual([undefined, undefined, undefined])
  expect(sent.map(({ parameters }) => parameters)).toEqual([[['u-1', 'u-2']]])
  // A lookup asked after that statement went reads the table again.
  await standingOf('u-1')
  expect(sent.map(({ parameters }) => parameters)).toEqual([[['u-1', 'u-2']], [['u-1']]])
})
