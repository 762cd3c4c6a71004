/// Queries over the activity read model: one user's history, newest first, a page at a time.

import type { Kysely } from 'kysely'
import type { GlobalPosition } from '../../infra/event-store/event-store.js'
import type { Database } from '../database.js'
import type { ActivityDetails } from './activity.table.js'

export type ActivityItem = {
  id: string
  type: string
  at: Date
  ip: string | null
  userAgent: string | null
  details: ActivityDetails
  /** Where the item sits in the order: a page that ends here continues after it. */
  position: GlobalPosition
}

export type ActivityPage = { items: ActivityItem[]; hasMore: boolean }

/**
 * Up to `limit` of the user's items older than `before` (all when null), newest first. The order
 * is the log's global order, so rows projected meanwhile are newer than any page already read.
 */
export const listActivityOfUser = async (
  db: Kysely<Database>,
  userId: string,
  { limit, before }: { limit: number; before: GlobalPosition | null },
): Promise<ActivityPage> => {
  let query = db
    .selectFrom('activity')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('position_tx', 'desc')
    .orderBy('position_seq', 'desc')
    // One more than asked tells whether another page exists.
    .limit(limit + 1)
  if (before)
    query = query.where((eb) =>
      eb(
        eb.refTuple('position_tx', 'position_seq'),
        '<',
        eb.tuple(before.tx.toString(), before.seq.toString()),
      ),
    )
  const rows = await query.execute()
  return {
    hasMore: rows.length > limit,
    items: rows.slice(0, limit).map((row) => ({
      id: row.id,
      type: row.type,
      at: row.at,
      ip: row.ip,
      userAgent: row.user_agent,
      details: row.details,
      position: { tx: BigInt(row.position_tx), seq: BigInt(row.position_seq) },
    })),
  }
}
