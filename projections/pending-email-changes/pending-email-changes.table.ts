/// Read model: the email change each verified user has on its way, one row per user. A row goes
/// when the change completes, is replaced by another, or the user is deleted (`new_email` is
/// personal data). Rows whose link has expired stay until then; the repository reads them as none.

import type { Kysely, Selectable } from 'kysely'

/** Which mailed link the change waits on: the current address's approval, then the new one's. */
export type EmailChangeStep = 'confirm-current' | 'verify-new'

export type PendingEmailChangesTable = {
  user_id: string
  new_email: string
  step: EmailChangeStep
  /** When the change was asked for (`/change-email`). */
  requested_at: Date
  /** When the link of the current step was mailed: it expires `emailVerification.expiresIn` later. */
  step_at: Date
}

export type PendingEmailChangeRow = Selectable<PendingEmailChangesTable>

export const pendingEmailChangesMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('pending_email_changes')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('new_email', 'text', (c) => c.notNull())
      .addColumn('step', 'text', (c) => c.notNull())
      .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
      .addColumn('step_at', 'timestamptz', (c) => c.notNull())
      .execute()
  },
}
