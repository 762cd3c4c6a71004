/// `tessera replay` runs in a thread whose young generation is larger than V8's default
/// (replay-in-worker.ts): read from inside the replay, its heap limit is larger than a default thread's
/// by that much.

import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { REPLAY_YOUNG_GENERATION_MB } from './replay-in-worker.js'

const root = join(import.meta.dirname, '../..')
const MB = 1024 * 1024
/** V8's default young generation on 64-bit: two 16 MB semi-spaces and a large-object space as large. */
const DEFAULT_YOUNG_GENERATION_MB = 48

const dataDir = mkdtempSync(join(tmpdir(), 'tessera-replay-worker-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** Replays an empty log (PGlite in `dataDir`) from the built module, beside a thread with V8's defaults. */
const heapLimits = (): { replay: number; defaultThread: number } => {
  const module = pathToFileURL(join(root, 'dist/app/cli/replay-in-worker.js')).href
  const script = `
    const { Worker } = await import('node:worker_threads')
    const { replayInWorker } = await import(${JSON.stringify(module)})
    const plain = new Worker(
      "require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().heap_size_limit)",
      { eval: true },
    )
    const defaultThread = await new Promise((resolve) => plain.once('message', resolve))
    const { heapSizeLimit } = await replayInWorker()
    console.log(JSON.stringify({ replay: heapSizeLimit, defaultThread }))
  `
  // Only what the replay needs: the test runner's own variables (BASE_URL among them) are not Tessera's.
  const env = { PATH: process.env.PATH, DATA_DIR: join(dataDir, 'data') }
  // A file, not \`-e\`: the replay's thread would inherit \`--input-type\`, which only \`-e\` allows.
  const file = join(dataDir, 'replay-heap.mjs')
  writeFileSync(file, script)
  const output = execFileSync(process.execPath, [file], {
    cwd: root,
    env,
    encoding: 'utf8',
  })
  return JSON.parse(output.trim().split('\n').at(-1) ?? '')
}

describe('the replay thread', () => {
  it('has a young generation larger than a default thread by the replay setting', () => {
    const { replay, defaultThread } = heapLimits()
    expect(replay - defaultThread).toBe((REPLAY_YOUNG_GENERATION_MB - DEFAULT_YOUNG_GENERATION_MB) * MB)
  })
})
