/// EVENT_STORE=kurrentdb on a start: a server that does not answer stops it at once, with a message
/// naming KURRENTDB_URL, and leaves nothing running.

import { createServer } from 'node:net'
import pino from 'pino'
import { expect, test, vi } from 'vitest'
import { exportCommand, importCommand } from '../../app/cli/archive-commands.js'
import { createTessera } from '../../app/server/tessera.js'
import { ConfigError, loadConfig } from '../../infra/config/config.js'
import { freshPglite } from '../support/databases.js'

const closedPort = async (): Promise<number> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

test('a start with EVENT_STORE=kurrentdb and no server at KURRENTDB_URL fails fast, naming the variable', async () => {
  const port = await closedPort()
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      AUTH_SECRET: 'test-secret-that-is-long-enough-0123456789',
      EVENT_STORE: 'kurrentdb',
      KURRENTDB_URL: `kurrentdb://admin:hunter2@127.0.0.1:${port}?tls=false`,
    },
    { cwd: '/nonexistent-tessera-test-dir' },
  )
  expect(config.warnings.join('\n')).toMatch(/experimental/)
  const database = await freshPglite()
  const started = Date.now()
  const start = createTessera({ config, logger: pino({ level: 'silent' }), database })
  await expect(start).rejects.toBeInstanceOf(ConfigError)
  await expect(start).rejects.toMatchObject({
    key: 'KURRENTDB_URL',
    message: expect.stringMatching(/^KURRENTDB_URL: KurrentDB did not answer/),
  })
  await expect(start).rejects.not.toMatchObject({ message: expect.stringContaining('hunter2') })
  expect(Date.now() - started).toBeLessThan(10_000)
  // The failed start closed the database it was given.
  await expect(database.db.selectFrom('tessera_checkpoints').selectAll().execute()).rejects.toThrow()
})

test('tessera export and import refuse EVENT_STORE=kurrentdb instead of moving an empty SQL log', async () => {
  vi.stubEnv('BASE_URL', 'http://localhost:3000')
  vi.stubEnv('EVENT_STORE', 'kurrentdb')
  vi.stubEnv('KURRENTDB_URL', 'kurrentdb://127.0.0.1:2113?tls=false')
  try {
    for (const [command, args] of [
      [exportCommand, ['-']],
      [importCommand, ['/nonexistent/archive.ndjson']],
    ] as const) {
      const run = command(args)
      await expect(run).rejects.toBeInstanceOf(ConfigError)
      await expect(run).rejects.toMatchObject({
        key: 'EVENT_STORE',
        message: expect.stringMatching(/SQL log only/),
      })
    }
  } finally {
    vi.unstubAllEnvs()
  }
})
