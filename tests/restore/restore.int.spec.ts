/// The restore path across clusters, with the real binary: users sign up on one PostgreSQL
/// cluster, `tessera export` writes the log, `tessera import` loads it into a second, fresh cluster
/// (whose transaction ids start far below the first one's) and replays. There the read models equal
/// the source's, old passwords and old cookies work, revocations hold, the claims still refuse a
/// taken email, an erased user stays erased, and new events project.

import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTesseraDatabase } from '../../app/database.js'
import { createTessera } from '../../app/server/tessera.js'
import { loadConfig } from '../../infra/config/config.js'
import { parsePosition, START } from '../../infra/event-store/event-store.js'
import { browserFor, devicesFor } from '../support/browser.js'
import { type PostgresCluster, startPostgresCluster } from '../support/postgres-cluster.js'
import { readModelTables, snapshotTables, type TableSnapshot } from '../support/table-snapshot.js'
import { startTessera, type TestTessera, testClient } from '../support/tessera.js'

const root = join(import.meta.dirname, '../..')
const SECRET = 'restore-test-secret-0123456789abcdefghij'
const PASSWORD = 'correct horse battery'

const tessera = async (url: string, ...args: string[]) => {
  const { BASE_URL: _vite, ...inherited } = process.env
  const env = { ...inherited, DATABASE_URL: url, AUTH_SECRET: SECRET, NODE_ENV: 'test' }
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(root, 'bin/tessera.js'), ...args],
      {
        env,
        cwd: root,
      },
    )
    return { code: 0, output: stdout + stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, output: failed.stdout + failed.stderr }
  }
}

/** A Tessera on an existing database (the imported one), with the tests' cookie-keeping client. */
const tesseraOn = async (url: string): Promise<TestTessera> => {
  const config = loadConfig({ NODE_ENV: 'test', AUTH_SECRET: SECRET, DATABASE_URL: url }, { cwd: tmpdir() })
  const database = await openTesseraDatabase({ kind: 'postgres', url })
  const running = await createTessera({ config, logger: pino({ level: 'silent' }), database })
  return { ...running, baseUrl: config.baseUrl, api: testClient(running), cleanup: () => running.close() }
}

describe('export from one cluster, import into a fresh one', () => {
  let source: TestTessera
  let cluster: PostgresCluster
  let target: TestTessera | undefined
  const dir = mkdtempSync(join(tmpdir(), 'tessera-restore-'))

  beforeAll(async () => {
    ;[source, cluster] = await Promise.all([
      startTessera({
        kind: 'postgres',
        env: { AUTH_SECRET: SECRET },
        features: { user: { deleteUser: { immediate: true } } },
      }),
      startPostgresCluster(),
    ])
  })
  afterAll(async () => {
    await target?.cleanup()
    await source.cleanup()
    await cluster.destroy()
    rmSync(dir, { recursive: true, force: true })
  })

  it('keeps users, passwords, sessions, revocations and claims, and projects what comes after', async () => {
    const devices = devicesFor(() => source, PASSWORD)
    const ada = await devices.signedUp('ada@example.com')
    const grace = await devices.signedUp('grace@example.com')
    const graceLaptop = await devices.signedIn('grace@example.com')
    const signedOutCookie = graceLaptop.jar.header()
    expect((await graceLaptop.post('/sign-out')).status).toBe(200)
    // Linus erases his account: the restore must not bring his data (or a fresh key for it) back.
    const linus = await devices.signedUp('linus@example.com')
    const linusId = (await linus.session())?.user.id
    expect((await linus.post('/delete-user', { password: PASSWORD })).status).toBe(200)
    const sourceUrl = (source.database as unknown as { url: string }).url
    const before = await source.store.readAll(START, 10_000)

    const file = join(dir, 'tessera.ndjson')
    const exported = await tessera(sourceUrl, 'export', file)
    expect(exported.code, exported.output).toBe(0)
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    // The export is the log as committed when it ran: all read before, and possibly an event the
    // shared server's xmin horizon (other tests' transactions) still hid from that read.
    const sourceEvents = lines.filter((line) => line.record === 'event') as { id: string; position: string }[]
    expect(sourceEvents.slice(0, before.length).map((event) => event.id)).toEqual(
      before.map((event) => event.id),
    )
    expect(exported).toMatchObject({
      code: 0,
      output: expect.stringContaining(`Exported ${sourceEvents.length} events`),
    })
    expect(lines[0]).toMatchObject({ record: 'header', format: 1 })
    expect(lines.at(-1)).toMatchObject({ record: 'end', events: sourceEvents.length })
    // Sealed as stored: no address in the clear anywhere in the file.
    expect(readFileSync(file, 'utf8')).not.toContain('ada@example.com')

    const targetUrl = await cluster.createDatabase('tessera')
    const imported = await tessera(targetUrl, 'import', file)
    expect(imported.output).toContain(`Imported ${sourceEvents.length} events`)
    expect(imported).toMatchObject({ code: 0, output: expect.stringContaining('Read models rebuilt') })
    // A second import into the same (no longer empty) database is refused and changes nothing.
    const again = await tessera(targetUrl, 'import', file)
    expect(again).toMatchObject({
      code: 1,
      output: expect.stringContaining('import only into an empty store'),
    })

    target = await tesseraOn(targetUrl)
    const restored = target
    // The imported positions are this cluster's own: below what it hands out next.
    const { rows } = await sql<{ now: string }>`select pg_current_xact_id()::text as now`.execute(
      restored.ctx.db,
    )
    const restoredEvents = await restored.store.readAll(START, 10_000)
    expect(restoredEvents.map((event) => event.id)).toEqual(sourceEvents.map((event) => event.id))
    // Read models are compared once the source has applied everything the export holds (other
    // tests' transactions on the shared server can hold its projector back for a moment).
    const lastExported = parsePosition((sourceEvents.at(-1) as { position?: string })?.position ?? '')
    expect(lastExported && (await source.projector.waitFor(lastExported, 30_000))).toBe(true)
    expect(restoredEvents.every((event) => event.position.tx < BigInt(rows[0]?.now ?? 0))).toBe(true)
    // Equal but for the positions some rows record, which are the new cluster's own.
    expect(withoutPositions(await snapshotTables(restored.ctx.db, readModelTables()))).toEqual(
      withoutPositions(await snapshotTables(source.ctx.db, readModelTables())),
    )

    // Old cookies still open their sessions; the one signed out stays signed out.
    const adaThere = browserFor(restored)
    adaThere.jar.store(ada.jar.header().split('; '))
    expect((await adaThere.session())?.user.id).toBe((await ada.session())?.user.id)
    const laptopThere = browserFor(restored)
    laptopThere.jar.store(signedOutCookie.split('; '))
    expect(laptopThere.jar.header()).not.toBe('')
    expect(await laptopThere.session()).toBeNull()
    const graceThere = browserFor(restored)
    graceThere.jar.store(grace.jar.header().split('; '))
    expect((await graceThere.session())?.user).toMatchObject({ email: 'grace@example.com' })

    // Old passwords sign in; the claims still refuse a taken address; a new user projects.
    const there = devicesFor(() => restored, PASSWORD)
    const adaAgain = await there.signedIn('ada@example.com')
    expect((await adaAgain.session())?.user.id).toBe((await ada.session())?.user.id)
    const taken = await browserFor(restored).post('/sign-up/email', {
      name: 'Other',
      email: 'grace@example.com',
      password: PASSWORD,
    })
    expect(taken.status).toBe(422)
    const erased = await sql<{ wrapped_key: string | null; erased_at: Date | null }>`
      select wrapped_key, erased_at from tessera_data_keys where subject = ${linusId}`.execute(
      restored.ctx.db,
    )
    expect(erased.rows).toEqual([{ wrapped_key: null, erased_at: expect.any(Date) }])
    const linusThere = await browserFor(restored).post('/sign-in/email', {
      email: 'linus@example.com',
      password: PASSWORD,
    })
    expect(linusThere.status).toBe(401)
    const newcomer = await there.signedUp('barbara@example.com')
    expect((await newcomer.session())?.user).toMatchObject({ email: 'barbara@example.com' })
    const after = await restored.store.readAll(START, 10_000)
    expect(after.length).toBeGreaterThan(restoredEvents.length)
    expect(restored.projector.position()).toEqual(after.at(-1)?.position)
  }, 300_000)
})

const withoutPositions = (snapshot: TableSnapshot): TableSnapshot =>
  Object.fromEntries(
    Object.entries(snapshot).map(([table, rows]) => [
      table,
      rows.map((row) =>
        Object.fromEntries(Object.entries(row).filter(([column]) => !column.startsWith('position_'))),
      ),
    ]),
  )
