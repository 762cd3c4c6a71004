/// Assembles the SCIM team reconciler of a projecting process, on KurrentDB only: on the SQL store a
/// group's events and its team's are one transaction, so there is never anything to reconcile and
/// nothing runs. Its checkpoint is a row of `tessera_checkpoints`; on PostgreSQL a pass holds an
/// advisory lock, so one process reconciles at a time; PGlite serves one process.

import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import {
  createScimTeamReconciler,
  type ReconcilerCheckpoint,
  type ScimTeamReconciler,
} from '../../command-api/scim/scim-team-reconciler.js'
import { createHandle } from '../../command-api/shared/handle.js'
import type { OrganizationDecider } from '../../domain/organization/organization.js'
import type { Config } from '../../infra/config/config.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import type { Database } from '../../projections/database.js'
import { withAdvisoryLock } from '../../projections/reactors/mail/advisory-lock.js'
import { readCheckpoint, writeCheckpoint } from '../../projections/runner/checkpoint-store.js'
import type { Projector } from '../../projections/runner/projector.js'
import type { TesseraDatabase } from '../database.js'

const NAME = 'scim-team-reconciler'

const checkpointOn = (db: Kysely<Database>): ReconcilerCheckpoint => ({
  read: () => readCheckpoint(db, NAME),
  write: (position) => writeCheckpoint(db, NAME, position),
})

export const createTesseraScimTeamReconciler = (parts: {
  config: Config
  logger: Logger
  database: TesseraDatabase
  store: EventStore
  projector: Projector
  organizations: OrganizationDecider
  clock: () => Date
}): ScimTeamReconciler | null => {
  const { config, database, store, projector } = parts
  if (config.eventStore.kind !== 'kurrentdb') return null
  const { db } = database
  const reconciler = createScimTeamReconciler({
    // Its own handle: nobody waits for the read models to show what the reconciler appends.
    team: {
      handle: createHandle({ store, projector: { waitFor: async () => true } }),
      store,
      organizations: parts.organizations,
      clock: parts.clock,
    },
    exclusively:
      database.kind === 'postgres'
        ? (work) => withAdvisoryLock(db, `tessera-reactor:${NAME}`, (q) => work(checkpointOn(q)))
        : (work) => work(checkpointOn(db)),
    logger: parts.logger,
  })
  // A group's events applied by this process's projector may be a call to follow once due.
  projector.onApplied((events) => {
    if (events.some((event) => event.type.startsWith('scim.group-'))) reconciler.wake()
  })
  return reconciler
}
