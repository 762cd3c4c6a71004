/// The keyring on PGlite and PostgreSQL: a key per subject, created once even under concurrent
/// first use, stored only wrapped, gone for good once destroyed (in every process, within the
/// cache lifetime), and unusable under another secret.

import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../../../tests/support/databases.js'
import type { OpenDatabase } from '../../db/database.js'
import { createKeyring, DataKeyUnavailableError, SubjectErasedError } from './keyring.js'

const SECRET = 'keyring-test-secret-0123456789abcdef'

describeEachDatabase('keyring', (fresh) => {
  let database: OpenDatabase
  beforeEach(async () => {
    database = await fresh()
  })
  afterEach(() => database.close())

  const storedRows = async () =>
    (
      await sql<{ subject: string; wrapped_key: string | null }>`
        select subject, wrapped_key from tessera_data_keys order by subject`.execute(database.db)
    ).rows

  it('creates one key per subject on first use and returns it from then on', async () => {
    const keyring = createKeyring(database.db, SECRET)
    expect(await keyring.existingKey('u1')).toBeNull()
    const first = await keyring.keyFor('u1')
    expect(first).toHaveLength(32)
    expect(await keyring.keyFor('u1')).toEqual(first)
    // Another process (no cache) unwraps the same key from the table.
    expect(await createKeyring(database.db, SECRET).existingKey('u1')).toEqual(first)
    expect(await keyring.keyFor('u2')).not.toEqual(first)
  })

  it('gives every concurrent first caller the same key', async () => {
    const keyrings = Array.from({ length: 8 }, () => createKeyring(database.db, SECRET))
    const keys = await Promise.all(keyrings.map((keyring) => keyring.keyFor('racer')))
    for (const key of keys) expect(key).toEqual(keys[0])
    expect(await storedRows()).toHaveLength(1)
  })

  it('stores keys wrapped, bound to their subject', async () => {
    const key = await createKeyring(database.db, SECRET).keyFor('u1')
    const [row] = await storedRows()
    expect(row?.wrapped_key).not.toContain(key.toString('base64url'))
    expect(row?.wrapped_key).not.toContain(key.toString('hex'))
    // A wrapped key moved to another subject does not unwrap.
    await sql`insert into tessera_data_keys (subject, wrapped_key) values ('u2', ${row?.wrapped_key})`.execute(
      database.db,
    )
    await expect(createKeyring(database.db, SECRET).existingKey('u2')).rejects.toThrow(
      DataKeyUnavailableError,
    )
  })

  it('refuses to unwrap under another secret, loudly', async () => {
    await createKeyring(database.db, SECRET).keyFor('u1')
    await expect(createKeyring(database.db, `${SECRET}-rotated`).existingKey('u1')).rejects.toThrow(
      /AUTH_SECRET/,
    )
  })

  it('forgets a destroyed key for good: a tombstone, never a fresh key; destroying again changes nothing', async () => {
    const keyring = createKeyring(database.db, SECRET)
    await keyring.keyFor('u1')
    await keyring.keyFor('u2')
    await keyring.destroy('u1')
    expect(await keyring.existingKey('u1')).toBeNull()
    expect(await storedRows()).toEqual([
      { subject: 'u1', wrapped_key: null },
      { subject: 'u2', wrapped_key: expect.any(String) },
    ])
    await expect(keyring.keyFor('u1')).rejects.toThrow(SubjectErasedError)
    await expect(createKeyring(database.db, SECRET).keyFor('u1')).rejects.toThrow(SubjectErasedError)
    await keyring.destroy('u1')
    expect((await storedRows()).map((row) => [row.subject, row.wrapped_key === null])).toEqual([
      ['u1', true],
      ['u2', false],
    ])
    expect(await keyring.existingKey('u2')).not.toBeNull()
  })

  it('after a rotation, opens keys under a retired secret and re-wraps them under the current one', async () => {
    const before = createKeyring(database.db, SECRET)
    const a = await before.keyFor('a')
    const b = await before.keyFor('b')
    await before.keyFor('gone')
    await before.destroy('gone')
    const rotated = createKeyring(database.db, [`${SECRET}-new`, SECRET])
    // First use re-wraps that key at once.
    expect(await rotated.existingKey('a')).toEqual(a)
    // The bulk pass does the rest and leaves tombstones alone.
    expect(await rotated.rewrapAll({ batchSize: 1 })).toEqual({ rewrapped: 1, current: 1, unreadable: [] })
    expect(await rotated.rewrapAll()).toEqual({ rewrapped: 0, current: 2, unreadable: [] })
    // Now the old secret can go: the new one alone opens every key.
    const after = createKeyring(database.db, `${SECRET}-new`)
    expect(await after.existingKey('a')).toEqual(a)
    expect(await after.existingKey('b')).toEqual(b)
    expect(await after.existingKey('gone')).toBeNull()
    await expect(createKeyring(database.db, SECRET).existingKey('b')).rejects.toThrow(DataKeyUnavailableError)
  })

  it('keyFor of an existing key in another process returns it, re-wrapped after a rotation', async () => {
    const key = await createKeyring(database.db, SECRET).keyFor('u1')
    expect(await createKeyring(database.db, SECRET).keyFor('u1')).toEqual(key)
    const rotated = createKeyring(database.db, [`${SECRET}-new`, SECRET])
    expect(await rotated.keyFor('u1')).toEqual(key)
    expect(await createKeyring(database.db, `${SECRET}-new`).keyFor('u1')).toEqual(key)
    expect(await storedRows()).toHaveLength(1)
  })

  it('reports the keys no accepted secret opens instead of failing the pass', async () => {
    await createKeyring(database.db, 'a-secret-that-was-lost-0123456789abcdef').keyFor('lost')
    await createKeyring(database.db, SECRET).keyFor('kept')
    expect(await createKeyring(database.db, SECRET).rewrapAll()).toEqual({
      rewrapped: 0,
      current: 1,
      unreadable: ['lost'],
    })
  })

  it('another process stops using a destroyed key once its cache entry expires', async () => {
    let now = 1_000_000
    const other = createKeyring(database.db, SECRET, { cacheTtlMs: 60_000, now: () => now })
    const here = createKeyring(database.db, SECRET)
    await here.keyFor('u1')
    expect(await other.existingKey('u1')).not.toBeNull()
    await here.destroy('u1')
    now += 60_001
    expect(await other.existingKey('u1')).toBeNull()
  })

  it('lookups asked in one turn share one statement, and none outlives an erasure made before it', async () => {
    const here = createKeyring(database.db, SECRET)
    const a = await here.keyFor('a')
    const b = await here.keyFor('b')
    let statements = 0
    const counted = database.db.withPlugin({
      transformQuery: ({ node }) => {
        statements += 1
        return node
      },
      transformResult: async ({ result }) => result,
    })
    // Another process, caching nothing: every lookup asks the table.
    const other = createKeyring(counted, SECRET, { cacheTtlMs: 0 })
    const [first, second, none] = await Promise.all([
      other.existingKey('a'),
      other.existingKeys(['b', 'a']),
      other.existingKey('none'),
    ])
    expect(statements).toBe(1)
    expect(first).toEqual(a)
    expect(second).toEqual(
      new Map([
        ['b', b],
        ['a', a],
      ]),
    )
    expect(none).toBeNull()
    await here.destroy('a')
    const [erased, kept] = await Promise.all([other.existingKey('a'), other.existingKey('b')])
    expect(erased).toBeNull()
    expect(kept).toEqual(b)
    expect(statements).toBe(2)
  })

  it('looks up many subjects at once, leaving out those without a key', async () => {
    const keyring = createKeyring(database.db, SECRET)
    const a = await keyring.keyFor('a')
    const b = await keyring.keyFor('b')
    const keys = await createKeyring(database.db, SECRET).existingKeys(['a', 'b', 'none', 'a'])
    expect([...keys.keys()].sort()).toEqual(['a', 'b'])
    expect(keys.get('a')).toEqual(a)
    expect(keys.get('b')).toEqual(b)
  })
})
