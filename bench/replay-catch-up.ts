/// The replay bench's timed step, run as a process of its own (bench/replay.ts) so that its peak
/// memory is its own, with the same event store, projections and projector as Tessera:
/// - `replay`: what `tessera replay` does (app/cli/commands.ts calls the same `replay`);
/// - `catch-up`: a projector that was stopped while events went on being written starts again and
///   applies what it missed, as `tessera serve --role projector` would on start.
/// Prints `{"events":N,"seconds":S,"cpuSeconds":C,"memory":{…}}`: the events applied, the seconds it
/// took, the CPU this process spent on it (its threads together), start-up left out, and the highest
/// of each of V8's memory figures sampled meanwhile (MB): what a peak RSS is made of.

import { limitHeapGrowth } from '../app/cli/heap-growth.js'
import { databaseTargetOf, openEventStore } from '../app/server/open-event-store.js'
import { loadConfig } from '../infra/config/config.js'
import { openDatabase } from '../infra/db/database.js'
import { START } from '../infra/event-store/event-store.js'
import { readModelProjections } from '../projections/all.js'
import { readCheckpoint } from '../projections/runner/checkpoint-store.js'
import { createProjector, replay } from '../projections/runner/projector.js'
import { yieldCpuToServing } from '../projections/runner/projector-priority.js'

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

const main = async () => {
  // As `tessera replay` and `tessera serve` (the projector's catch-up) hold their heap.
  limitHeapGrowth()
  const config = loadConfig()
  const database = await openDatabase(databaseTargetOf(config))
  const { store } = await openEventStore(database, config)
  try {
    const options = {
      db: database.db,
      store,
      projections: readModelProjections,
      group: GROUP,
      singleBackend: database.kind === 'pglite',
      // BENCH_REPLAY_BATCH: events per batch, to compare with the projector's default.
      ...(process.env.BENCH_REPLAY_BATCH ? { batchSize: Number(process.env.BENCH_REPLAY_BATCH) } : {}),
    }
    const rebuild = process.argv[2] === 'replay'
    // The catch-up stands for `serve --role projector`, which runs at a lower priority (projector-priority.ts).
    if (!rebuild) yieldCpuToServing()
    const before = rebuild ? START : await readCheckpoint(database.db, GROUP)
    const { eventsAfter } = await store.head(before, Number.MAX_SAFE_INTEGER)
    const started = process.hrtime.bigint()
    const cpu = process.cpuUsage()
    const memory = sampleMemory()
    if (rebuild) await replay(options)
    else await createProjector(options).catchUp()
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const { user, system } = process.cpuUsage(cpu)
    const cpuSeconds = (user + system) / 1e6
    console.log(JSON.stringify({ events: eventsAfter, seconds, cpuSeconds, memory: memory() }))
  } finally {
    await store.close()
    await database.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
