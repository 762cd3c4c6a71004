/// The read-model schema as Kysely sees it: one entry per table, filled by the projections.

import type { CheckpointsTable } from './runner/checkpoints.table.js'
import type { SessionsTable } from './sessions/sessions.table.js'
import type { AccountsTable, UsersTable } from './users/users.table.js'

export type Database = {
  users: UsersTable
  accounts: AccountsTable
  sessions: SessionsTable
  tessera_checkpoints: CheckpointsTable
}
