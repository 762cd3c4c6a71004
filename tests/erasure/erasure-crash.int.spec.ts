/// Erasure is one transaction with the deletion: a Tessera killed (SIGKILL, a real child process on
/// the real PostgreSQL) the instant `user.deleted` commits leaves nothing to retry. Restarted, the
/// person's events read as erased, their key is a tombstone that never becomes a fresh key, and
/// they cannot sign in. Another instance that had their key cached stops decrypting at once when
/// it reads the deletion, and within the cache's few seconds everywhere else.

import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import pino from 'pino'
import { build } from 'rolldown'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEventStore } from '../../app/server/open-event-store.js'
import { createTessera, type Tessera } from '../../app/server/tessera.js'
import { subjectOf } from '../../domain/events.js'
import { userStream } from '../../domain/user/user.js'
import { loadConfig } from '../../infra/config/config.js'
import {
  DEFAULT_KEY_CACHE_TTL_MS,
  SubjectErasedError,
} from '../../infra/event-store/personal-data/keyring.js'
import { freshPostgres, type PostgresDatabase } from '../support/databases.js'
import { testClient } from '../support/tessera.js'

const root = join(import.meta.dirname, '../..')
// Inside the checkout, so the bundle's package imports resolve from node_modules.
const bundleDir = join(root, 'node_modules/.cache/tessera-tests')
const child = join(bundleDir, 'erasure-crash-child.mjs')
const PERSON = {
  CRASH_NAME: 'Grace Hopper',
  CRASH_EMAIL: 'grace@example.com',
  CRASH_PASSWORD: 'cobol-compiler-1959',
}

describe('erasure survives a kill between the deletion and anything after it (postgres)', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'tessera-erasure-crash-'))
  writeFileSync(
    join(cwd, 'tessera.config.json'),
    JSON.stringify({ user: { deleteUser: { immediate: true } } }),
  )
  let postgres: PostgresDatabase
  let tessera: Tessera | null = null
  const env = () => ({
    NODE_ENV: 'test',
    AUTH_SECRET: 'erasure-crash-test-secret-0123456789abcdef',
    DATABASE_URL: postgres.url,
  })

  beforeAll(async () => {
    mkdirSync(bundleDir, { recursive: true })
    await build({
      input: join(import.meta.dirname, 'crash-child.ts'),
      platform: 'node',
      // Packages stay imports; only Tessera's own TypeScript is bundled.
      external: (id) => !id.startsWith('.') && !id.startsWith('/'),
      // One file: the lazily loaded modules (the KurrentDB client's opener) are inlined.
      output: { file: child, format: 'esm', codeSplitting: false },
      logLevel: 'warn',
    })
    postgres = await freshPostgres()
  })
  afterAll(async () => {
    await tessera?.close()
    await postgres?.close()
    rmSync(cwd, { recursive: true, force: true })
  })

  it('a deletion killed the instant it commits is still an erasure after the restart', async () => {
    const { BASE_URL: _vite, ...inherited } = process.env
    const process_ = spawn(process.execPath, [child], {
      env: { ...inherited, ...env(), ...PERSON, TESSERA_TEST_CWD: cwd },
      cwd: root,
    })
    let output = ''
    process_.stdout.on('data', (chunk) => (output += chunk))
    process_.stderr.on('data', (chunk) => (output += chunk))
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      process_.on('exit', (code, signal) => resolve({ code, signal })),
    )
    expect(ended, output).toEqual({ code: null, signal: 'SIGKILL' })
    expect(output).not.toContain('survived')
    const { userId } = JSON.parse(output.split('\n')[0] ?? '') as { userId: string }

    tessera = await createTessera({ config: loadConfig(env(), { cwd }), logger: pino({ level: 'silent' }) })
    const events = await tessera.store.readStream(userStream(userId))
    expect(events.map((event) => event.type)).toContain('user.deleted')
    // Everything sealed under the person's key (a deletion notice has a key of its own, erased
    // once the notice is handled).
    const theirs = events.filter((event) => subjectOf(event) === userId)
    expect(theirs.length).toBeGreaterThan(1)
    expect(theirs.every((event) => event.metadata.erased)).toBe(true)
    expect(events[0]?.data).toMatchObject({ userId, email: null, name: null })
    const { rows } = await sql<{ wrapped_key: string | null }>`
      select wrapped_key from tessera_data_keys where subject = ${userId}`.execute(tessera.database.db)
    expect(rows).toEqual([{ wrapped_key: null }])
    // The tombstone: no fresh key for the erased subject, in this process or any other.
    await expect(tessera.keyring.keyFor(userId)).rejects.toThrow(SubjectErasedError)

    const api = testClient(tessera)
    const signIn = await api.request('POST', '/sign-in/email', {
      email: PERSON.CRASH_EMAIL,
      password: PERSON.CRASH_PASSWORD,
    })
    expect(signIn.status).toBe(401)
  })

  it('another instance stops decrypting an erased subject when it reads the deletion, and within seconds anyway', async () => {
    if (!tessera) throw new Error('the first test starts Tessera')
    const api = testClient(tessera)
    const signUp = await api.request('POST', '/sign-up/email', {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'analytical-engine-1843',
    })
    expect(signUp.status).toBe(200)
    const { user } = signUp.json as { user: { id: string } }
    const cookie = [signUp.headers['set-cookie'] ?? []]
      .flat()
      .map((line) => String(line).split(';')[0])
      .join('; ')
    // Two other instances: each its own keyring (and key cache) over the same database.
    const [soon, later] = await Promise.all([
      openEventStore(tessera.database, tessera.ctx.config),
      openEventStore(tessera.database, tessera.ctx.config),
    ])
    const sessionStream = (await soon.store.readAll({ tx: 0n, seq: 0n }, 1000)).find(
      (event) => event.type === 'session.started' && (event.data as { userId: string }).userId === user.id,
    )?.streamId
    if (!sessionStream) throw new Error('no session.started for the new user')
    for (const other of [soon, later]) {
      expect((await other.store.readStream(userStream(user.id)))[0]?.data).toMatchObject({
        email: 'ada@example.com',
      })
      expect((await other.store.readStream(sessionStream))[0]?.metadata.erased).toBeUndefined()
    }

    const deleted = await api.request('POST', '/delete-user', {}, { cookie })
    expect(deleted.json).toEqual({ success: true, message: 'User deleted' })
    const erasedAt = Date.now()
    // Reading the deletion drops the cached key at once: the rest of the subject reads erased too.
    const userEvents = await soon.store.readStream(userStream(user.id))
    expect(
      userEvents.filter((event) => subjectOf(event) === user.id).every((event) => event.metadata.erased),
    ).toBe(true)
    expect((await soon.store.readStream(sessionStream)).every((event) => event.metadata.erased)).toBe(true)
    // An instance that never reads the deletion stops once its cached key expires (seconds).
    const remaining = DEFAULT_KEY_CACHE_TTL_MS - (Date.now() - erasedAt)
    if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining + 50))
    expect((await later.store.readStream(sessionStream)).every((event) => event.metadata.erased)).toBe(true)
    await soon.store.close()
    await later.store.close()
  })
})
