/// What every route plugin gets: configuration, stores, the command handler and the clock. Passed
/// in explicitly (no hidden singletons) and reached through `app.tessera`.

import type { Kysely } from 'kysely'
import type { Handle } from '../../command-api/handle.js'
import type { Database } from '../../projections/database.js'
import type { Projector } from '../../projections/runner/projector.js'
import type { SessionResolver } from '../../query-api/session/resolve-session.js'
import type { Config } from '../config/config.js'
import type { EventStore } from '../event-store/event-store.js'

export type AppContext = {
  config: Config
  db: Kysely<Database>
  store: EventStore
  projector: Projector
  handle: Handle
  sessions: SessionResolver
  clock: () => Date
  /** Erases a deleted user's personal data from the log (destroys their data key). */
  eraseUser: (userId: string) => Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    tessera: AppContext
  }
}
