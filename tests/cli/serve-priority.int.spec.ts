/// `tessera serve --role projector` runs at a lower CPU priority than the serving processes on its
/// host (projections/runner/projector-priority.ts); `--role api` keeps the priority it was given.
/// Linux only: nice values are read per thread from /proc.

import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECTOR_NICE } from '../../projections/runner/projector-priority.js'
import { freePort } from '../support/free-port.js'
import { niceOfProcessThread, niceOfThread } from '../support/thread-nice.js'

const root = join(import.meta.dirname, '../..')
const bin = join(root, 'bin/tessera.js')

/** Starts `serve --role <role>`, waits until it says it runs: the nice of its main thread and of each thread. */
const nicesOfServe = async (
  role: 'api' | 'projector',
  dataDir: string,
): Promise<{ main: number; threads: number[] }> => {
  // Vitest puts Vite's BASE_URL ('/') into process.env; the child must not inherit it.
  const { BASE_URL: _viteBaseUrl, ...inherited } = process.env
  const child = spawn(process.execPath, [bin, 'serve', '--role', role], {
    cwd: root,
    env: {
      ...inherited,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      LOG_LEVEL: 'info',
      AUTH_SECRET: 'cli-priority-secret-0123456789abcdefghij',
    },
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    let output = ''
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        output += chunk
        if (output.includes('Tessera is running')) resolve()
      })
      child.stderr.on('data', (chunk) => (output += chunk))
      child.once('exit', (code) => reject(new Error(`tessera exited with ${code}:\n${output}`)))
    })
    const pid = child.pid as number
    const threads = readdirSync(`/proc/${pid}/task`).map((tid) => niceOfProcessThread(pid, tid))
    return { main: niceOfProcessThread(pid, String(pid)), threads }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

describe.runIf(process.platform === 'linux')('tessera serve: CPU priority by role', () => {
  let dataDir: string
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-priority-'))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('lowers every thread of a projector-only process, and leaves an api process as started', {
    timeout: 300_000,
  }, async () => {
    const started = niceOfThread('self')
    const projector = await nicesOfServe('projector', dataDir)
    expect(projector.threads.length).toBeGreaterThan(1)
    for (const nice of projector.threads) expect(nice).toBe(Math.max(started, PROJECTOR_NICE))
    // Its password workers run at their own low priority (scrypt-workers.ts); the event loop does not.
    expect((await nicesOfServe('api', dataDir)).main).toBe(started)
  })
})
