/// The thread `tessera replay` runs the replay in (replay-in-worker.ts starts it with a larger young
/// generation). Rebuilds every read model from the event log, as the command always has, and posts
/// back where it ended, its time and CPU, and V8's heap limit as this thread sees it.

import { getHeapStatistics } from 'node:v8'
import { parentPort, workerData } from 'node:worker_threads'
import { loadConfig } from '../../infra/config/config.js'
import { readModelProjections } from '../../projections/all.js'
import { replay } from '../../projections/runner/projector.js'
import { migrateTessera, openTesseraDatabase } from '../database.js'
import { databaseTargetOf, openEventStore } from '../server/open-event-store.js'
import type { ReplayRun, ReplayWorkerData } from './replay-in-worker.js'

const run = async ({ batchSize }: ReplayWorkerData): Promise<ReplayRun> => {
  const config = loadConfig()
  const database = await openTesseraDatabase(databaseTargetOf(config))
  try {
    await migrateTessera(database.db)
    // Through the decrypting store: the read models hold plain values, erased users none.
    const { store } = await openEventStore(database, config)
    try {
      const started = process.hrtime.bigint()
      const cpu = process.cpuUsage()
      const position = await replay({
        db: database.db,
        store,
        projections: readModelProjections,
        singleBackend: database.kind === 'pglite',
        ...(batchSize === undefined ? {} : { batchSize }),
      })
      const { user, system } = process.cpuUsage(cpu)
      return {
        position,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        cpuSeconds: (user + system) / 1e6,
        heapSizeLimit: getHeapStatistics().heap_size_limit,
      }
    } finally {
      await store.close()
    }
  } finally {
    await database.close()
  }
}

parentPort?.postMessage(await run(workerData as ReplayWorkerData))
