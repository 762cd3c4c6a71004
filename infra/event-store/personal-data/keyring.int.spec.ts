/// The keyring on PGlite and PostgreSQL: a key per subject, created once even under concurrent
/// first use, stored only wrapped, gone for good once destroyed (in every process, within the
/// cache lifetime), and unusable under another secret.

import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../../../tests/support/databases.js'
import type { OpenDatabase } from '../../db/database.js'
import { createKeyring, DataKeyUnavailableError } from './keyring.js'

const SECRET = 'keyring-test-secret-0123456789abcdef'

describeEachDatabase('keyring', (fresh) => {
  let database: OpenDatabase
  beforeEach(async () => {
    database = await fresh()
  })
  afterEach(() => database.close())

  const storedRows = async () =>
    (
      await sql<{ subject: string; wrapped_key: string }>`
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

  it('forgets a destroyed key; a later first use makes a new one', async () => {
    const keyring = createKeyring(database.db, SECRET)
    const old = await keyring.keyFor('u1')
    await keyring.keyFor('u2')
    await keyring.destroy('u1')
    expect(await keyring.existingKey('u1')).toBeNull()
    expect((await storedRows()).map((row) => row.subject)).toEqual(['u2'])
    const renewed = await keyring.keyFor('u1')
    expect(renewed).not.toEqual(old)
    expect(await keyring.existingKey('u2')).not.toBeNull()
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
