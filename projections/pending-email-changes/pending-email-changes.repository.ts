/// Queries over pending email changes.

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'
import type { PendingEmailChangeRow } from './pending-email-changes.table.js'

/**
 * The user's email change still on its way at `now`: none once the link of its current step has
 * expired (`linkSeconds`, config.emailVerification.expiresIn), since nothing can complete it then.
 */
export const findPendingEmailChange = (
  db: Kysely<Database>,
  userId: string,
  { now, linkSeconds }: { now: Date; linkSeconds: number },
): Promise<PendingEmailChangeRow | undefined> =>
  db
    .selectFrom('pending_email_changes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('step_at', '>', new Date(now.getTime() - linkSeconds * 1000))
    .executeTakeFirst()
