/// Migrations of the tables that keep the read models honest when the projector lags or halts:
/// revocations enforced before they are projected, and the projector's faults and skips.
/// Kept apart from `projections/migrations.ts` (the read models proper); the composition root
/// runs both. Never edit one that has landed.

import type { Migration } from 'kysely'
import { pendingRevocationsMigration } from '../sessions/pending-revocations.js'
import { projectorFaultsMigration } from './projector-faults.js'

export const consistencyMigrations: Record<string, Migration> = {
  '2026-11-23T03:00:00Z_pending-revocations': pendingRevocationsMigration,
  '2026-11-23T03:01:00Z_projector-faults': projectorFaultsMigration,
}
