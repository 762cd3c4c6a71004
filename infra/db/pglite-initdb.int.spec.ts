import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from './database.js'
import { initialisePgliteDirectory, isInitialised } from './pglite-initdb.js'

const dirs: string[] = []
const freshDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tessera-initdb-'))
  dirs.push(dir)
  return join(dir, 'data')
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe('the embedded database first start', () => {
  it('initialises the directory in a child process, and the server opens what it made', {
    timeout: 240_000,
  }, async () => {
    const dataDir = await freshDir()
    expect(isInitialised(dataDir)).toBe(false)
    await initialisePgliteDirectory(dataDir)
    expect(isInitialised(dataDir)).toBe(true)
    const database = await openDatabase({ kind: 'pglite', dataDir })
    try {
      await sql`create table kept (id int)`.execute(database.db)
      await sql`insert into kept values (42)`.execute(database.db)
    } finally {
      await database.close()
    }
    // Initialising again leaves the cluster and its data alone.
    await initialisePgliteDirectory(dataDir)
    const reopened = await openDatabase({ kind: 'pglite', dataDir })
    try {
      const { rows } = await sql<{ id: number }>`select id from kept`.execute(reopened.db)
      expect(rows).toEqual([{ id: 42 }])
    } finally {
      await reopened.close()
    }
  })
})
