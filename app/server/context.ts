/// What every route plugin gets: configuration, stores, the command handler and the clock. Passed
/// in explicitly (no hidden singletons) and reached through `app.tessera`.

import type { Kysely } from 'kysely'
import type { Handle } from '../../command-api/shared/handle.js'
import type { Config } from '../../infra/config/config.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import type { Database } from '../../projections/database.js'
import type { Projector } from '../../projections/runner/projector.js'
import type { SessionResolver } from '../../query-api/sessions/resolve-session.js'

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
