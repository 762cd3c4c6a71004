/// The replay bench's catch-up: a projector that was stopped while events went on being written
/// starts again and applies what it missed, as `tessera serve --role projector` would on start
/// (the same projector, projections and event store). Prints `{"events":N}` once it has caught up.
/// Run as a process of its own (bench/replay.ts) so that its peak memory is its own.

import { databaseTargetOf, openEventStore } from '../app/server/tessera.js'
import { loadConfig } from '../infra/config/config.js'
import { openDatabase } from '../infra/db/database.js'
import { readModelProjections } from '../projections/all.js'
import { readCheckpoint } from '../projections/runner/checkpoint-store.js'
import { createProjector } from '../projections/runner/projector.js'

const GROUP = 'read-models'

const main = async () => {
  const config = loadConfig()
  const database = await openDatabase(databaseTargetOf(config))
  const { store } = await openEventStore(database, config)
  try {
    const before = await readCheckpoint(database.db, GROUP)
    const { eventsAfter } = await store.head(before, Number.MAX_SAFE_INTEGER)
    const projector = createProjector({
      db: database.db,
      store,
      projections: readModelProjections,
      group: GROUP,
      singleBackend: database.kind === 'pglite',
    })
    await projector.catchUp()
    console.log(JSON.stringify({ events: eventsAfter }))
  } finally {
    await store.close()
    await database.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
