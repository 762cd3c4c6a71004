/// `tessera replay` runs the replay in a worker thread whose young generation is 64 MB (two 32 MB
/// semi-spaces) rather than V8's 32. A replay allocates fast and keeps each batch's objects alive
/// for a while; with the smaller young generation, garbage collection took 28% of its CPU. The larger
/// one cut the replay's Node CPU per 1,000 events from ~138 ms to ~110 (bench, issue 31), for ~60 MB
/// more peak RSS (within the 300 MB target). `--max-semi-space-size` is read only when the process
/// starts, so it is set as the worker's resource limit instead; the old generation's growth stays
/// limited as heap-growth.ts limits it (its flags are set again when the worker comes online).

import { Worker } from 'node:worker_threads'
import type { GlobalPosition } from '../../infra/event-store/event-store.js'
import { limitOldGenerationGrowth } from './heap-growth.js'

/**
 * The young generation's limit: V8 counts two semi-spaces and a large-object space of the same
 * size, so 96 MB gives the 32 MB semi-spaces of `--max-semi-space-size=32`.
 */
export const REPLAY_YOUNG_GENERATION_MB = 96

export type ReplayWorkerData = { batchSize?: number }

export type ReplayRun = {
  position: GlobalPosition
  /** The replay's own time and the process's CPU meanwhile (all its threads), start-up left out. */
  seconds: number
  cpuSeconds: number
  /** V8's heap limit in the replay's thread (bytes): its young generation's limit is part of it. */
  heapSizeLimit: number
}

/** Rebuilds every read model (replay-worker.ts) in a thread of its own; the database comes from the environment. */
export const replayInWorker = (data: ReplayWorkerData = {}): Promise<ReplayRun> => {
  limitOldGenerationGrowth()
  const worker = new Worker(new URL('./replay-worker.js', import.meta.url), {
    workerData: data,
    resourceLimits: { maxYoungGenerationSizeMb: REPLAY_YOUNG_GENERATION_MB },
  })
  return new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.once('exit', (code) =>
      reject(new Error(`The replay's thread exited with ${code} before it ended.`)),
    )
  })
}
