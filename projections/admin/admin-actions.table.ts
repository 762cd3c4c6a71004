/// The audit view's table (projections/admin/admin-actions.ts fills it), apart from its projection so
/// that projections/database.ts can name it without importing the projection.

import type { ColumnType, Selectable } from 'kysely'
import type { ActivityDetails } from '../../domain/shared/event-declaration.js'

export type AdminActionsTable = {
  /** The event id. */
  id: string
  at: Date
  actor_type: string
  /** The acting user's id, the server key's name, or null for the system. */
  actor_id: string | null
  impersonated_by: string | null
  /** The event type. */
  action: string
  subject_user_id: string | null
  details: ColumnType<ActivityDetails, string, string>
}

export type AdminActionRow = Selectable<AdminActionsTable>
