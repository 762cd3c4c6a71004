/// Assembles a running Tessera: database (migrated), event store, projector, session resolver and
/// the HTTP app. Roles: `all` (default: serves and projects), `api` (serves; another process
/// projects), `projector` (projects only).

import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { createHandle } from '../../command-api/handle.js'
import { readModelProjections } from '../../projections/all.js'
import { createProjector, type Projector } from '../../projections/runner/projector.js'
import { createSessionCache } from '../../query-api/session/session-cache.js'
import { createSessionResolver } from '../../query-api/session/resolve-session.js'
import type { Config } from '../config/config.js'
import { type DatabaseTarget, type OpenDatabase, openDatabase } from '../db/database.js'
import { migrateToLatest } from '../db/migrate.js'
import type { EventStore } from '../event-store/event-store.js'
import { createSqlEventStore } from '../event-store/sql-event-store.js'
import { buildApp } from './app.js'
import type { AppContext } from './context.js'

export type Role = 'all' | 'api' | 'projector'

export type TesseraOptions = {
  config: Config
  logger: Logger
  role?: Role
  /** An already open database to use instead of the one the config names; closed with Tessera. */
  database?: OpenDatabase
  portalDir?: string | null
  clock?: () => Date
}

export type Tessera = {
  app: FastifyInstance | null
  ctx: AppContext
  database: OpenDatabase
  store: EventStore
  projector: Projector
  close(): Promise<void>
}

export const databaseTargetOf = (config: Config): DatabaseTarget =>
  config.database.kind === 'postgres'
    ? { kind: 'postgres', url: config.database.url }
    : { kind: 'pglite', dataDir: config.database.dataDir }

export const createTessera = async (options: TesseraOptions): Promise<Tessera> => {
  const { config, logger, role = 'all', clock = () => new Date() } = options
  const database = options.database ?? (await openDatabase(databaseTargetOf(config)))
  await migrateToLatest(database.db)
  const store = createSqlEventStore(database.db, {
    ...(database.listenForeignCommits ? { listenForeignCommits: database.listenForeignCommits } : {}),
  })
  const projects = role !== 'api'
  const projector = createProjector({
    db: database.db,
    store,
    projections: readModelProjections,
    mode: projects ? 'apply' : 'follow',
    logger,
  })
  // The cache is exact only where this process applies the events that evict from it.
  const cache = projects ? createSessionCache() : null
  if (cache) projector.onApplied((events) => cache.evictFor(events))
  const sessions = createSessionResolver(database.db, {
    secret: config.secret,
    secure: config.secureCookies,
    expiresIn: config.session.expiresIn,
  }, cache)
  const handle = createHandle({
    store,
    projector,
    onStaleRead: (stream) => logger.warn({ stream }, 'read models lag behind a command; answered anyway'),
  })
  const ctx: AppContext = { config, db: database.db, store, projector, handle, sessions, clock }
  await projector.start()
  const app = role === 'projector' ? null : await buildApp(ctx, { logger, portalDir: options.portalDir ?? null })

  return {
    app,
    ctx,
    database,
    store,
    projector,
    async close() {
      await app?.close()
      await projector.stop()
      await store.close()
      await database.close()
    },
  }
}
