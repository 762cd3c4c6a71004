/// The replay bench's timed step, run as a process of its own (bench/replay.ts) so that its peak
/// memory is its own, with the same event store, projections and projector as Tessera:
/// - `replay`: what `tessera replay` does: the same `replayInWorker` (app/cli/replay-in-worker.ts);
/// - `catch-up`: a projector that was stopped while events went on being written starts again and
///   applies what it missed, as `tessera serve --role projector` would on start.
/// Prints `{"events":N,"seconds":S,"cpuSeconds":C,"memory":{…}}`: the events applied, the seconds it
/// took, the CPU this process spent on it (its threads together), start-up left out, and the highest
/// of each of V8's memory figures sampled meanwhile (MB): what a peak RSS is made of.

import { limitHeapGrowth } from '../app/cli/heap-growth.js'
import { replayInWorker } from '../app/cli/replay-in-worker.js'
import { databaseTargetOf, openEventStore } from '../app/server/open-event-store.js'
import { loadConfig } from '../infra/config/config.js'
import { openDatabase } from '../infra/db/database.js'
import { readModelProjections } from '../projections/all.js'
import { catchUpPacing } from '../projections/runner/catch-up-pacing.js'
import { readCheckpoint } from '../projections/runner/checkpoint-store.js'
import { createProjector } from '../projections/runner/projector.js'
import { yieldCpuToServing } from '../projections/runner/projector-priority.js'
import { LOG_EVENTS } from './replay-process.js'

const GROUP = 'read-models'
const MB = 1024 * 1024

/** Samples `process.memoryUsage()` until stopped; the highest of each figure, in MB. */
const sampleMemory = () => {
  const peak = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }
  const sample = () => {
    const usage = process.memoryUsage()
    for (const key of Object.keys(peak) as (keyof typeof peak)[])
      peak[key] = Math.max(peak[key], Math.round(usage[key] / MB))
  }
  const timer = setInterval(sample, 250)
  return () => {
    clearInterval(timer)
    sample()
    return peak
  }
}

/** The events after the checkpoint, counted with the database open only meanwhile (PGlite allows one opener). */
const eventsAfterCheckpoint = async (): Promise<number> => {
  const config = loadConfig()
  const database = await openDatabase(databaseTargetOf(config))
  const { store } = await openEventStore(database, config)
  try {
    return (await store.head(await readCheckpoint(database.db, GROUP), Number.MAX_SAFE_INTEGER)).eventsAfter
  } finally {
    await store.close()
    await database.close()
  }
}

/** BENCH_REPLAY_BATCH: events per batch, to compare with the projector's default. */
const batchSize = process.env.BENCH_REPLAY_BATCH ? Number(process.env.BENCH_REPLAY_BATCH) : undefined

/** What `tessera replay` runs: its thread, with its heap settings (replay-in-worker.ts). */
const rebuild = async () => {
  // Told by the bench, which wrote the log: counting it here read every event once more, inside the
  // window where the database's CPU is charged to the replay (some 8 ms per 1,000 events).
  const events = Number(process.env[LOG_EVENTS])
  if (!Number.isSafeInteger(events) || events < 1) throw new Error(`${LOG_EVENTS} must be the log's length`)
  const memory = sampleMemory()
  const { seconds, cpuSeconds } = await replayInWorker(batchSize === undefined ? {} : { batchSize })
  // The heap figures are this thread's; rss is the process's, the replay's thread included.
  return { events, seconds, cpuSeconds, memory: memory() }
}

/** `serve --role projector` on start, at its lower priority (projector-priority.ts) and pace. */
const catchUp = async () => {
  // As `tessera serve` holds its heap.
  limitHeapGrowth()
  yieldCpuToServing()
  const events = await eventsAfterCheckpoint()
  const config = loadConfig()
  const database = await openDatabase(databaseTargetOf(config))
  const { store } = await openEventStore(database, config)
  try {
    const started = process.hrtime.bigint()
    const cpu = process.cpuUsage()
    const memory = sampleMemory()
    await createProjector({
      db: database.db,
      store,
      projections: readModelProjections,
      group: GROUP,
      singleBackend: database.kind === 'pglite',
      // As PROJECTOR_CATCH_UP_SHARE sets it for `serve --role projector`.
      pacing: catchUpPacing(config.consistency.projectorCatchUpShare),
      ...(batchSize === undefined ? {} : { batchSize }),
    }).catchUp()
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const { user, system } = process.cpuUsage(cpu)
    return { events, seconds, cpuSeconds: (user + system) / 1e6, memory: memory() }
  } finally {
    await store.close()
    await database.close()
  }
}

const main = async () => {
  console.log(JSON.stringify(process.argv[2] === 'replay' ? await rebuild() : await catchUp()))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
