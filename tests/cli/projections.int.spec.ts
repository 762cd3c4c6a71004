/// `tessera projections status|skip` from the real binary, against a real halted projector: a poison
/// event planted in the log of a running Tessera on PostgreSQL. The server goes on by itself once
/// the operator skips the event.

import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { formatPosition, START } from '../../infra/event-store/event-store.js'
import { devicesFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const root = join(import.meta.dirname, '../..')
const SECRET = 'projections-cli-secret-0123456789abcdef'

const tessera = async (url: string, ...args: string[]) => {
  const { BASE_URL: _vite, ...inherited } = process.env
  const env = { ...inherited, DATABASE_URL: url, AUTH_SECRET: SECRET, NODE_ENV: 'test' }
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'bin/tessera.js'), ...args], {
      env,
      cwd: root,
    })
    return { code: 0, output: stdout }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, output: failed.stdout + failed.stderr }
  }
}

describe('tessera projections', () => {
  let main: TestTessera
  beforeEach(async () => {
    main = await startTessera({ kind: 'postgres', env: { AUTH_SECRET: SECRET, PROJECTOR_MAX_ATTEMPTS: '2' } })
  })
  afterEach(() => main.cleanup())

  it('status shows the halt and its event, skip names it, and the server goes on', async () => {
    const { url } = main.database as unknown as { url: string }
    await devicesFor(() => main, 'correct horse battery').signedUp()
    const [registered] = (await main.store.readAll(START, 100)).filter((e) => e.type === 'user.registered')
    if (!registered) throw new Error('no registration')
    const poison = await main.store.appendToStream(
      `user-${randomUUID()}`,
      [{ ...registered, id: randomUUID() }],
      { expectedVersion: 'no_stream' },
    )
    const deadline = Date.now() + 15_000
    while (main.projector.status().state !== 'halted' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))

    const status = await tessera(url, 'projections', 'status')
    expect(status.code).toBe(3)
    expect(status.output).toContain(`read-models: HALTED`)
    expect(status.output).toContain(`projection users cannot apply event ${formatPosition(poison.position)}`)

    const wrong = await tessera(url, 'projections', 'skip', '1:1')
    expect(wrong.code).toBe(1)
    expect(wrong.output).toContain(`halted at ${formatPosition(poison.position)}, not 1:1`)

    const skip = await tessera(url, 'projections', 'skip', formatPosition(poison.position))
    expect(skip).toMatchObject({ code: 0, output: expect.stringContaining('skipped') })
    const caughtUp = Date.now() + 10_000
    while (main.projector.status().state !== 'running' && Date.now() < caughtUp)
      await new Promise((resolve) => setTimeout(resolve, 50))
    expect(main.projector.status().state).toBe('running')
    expect((await tessera(url, 'projections', 'status')).output).toContain('read-models: running')
  }, 300_000)
})
