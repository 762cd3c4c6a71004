/// Projects every user's events into `activity`, their account history. A deleted user's
/// history goes with them.

import { sql } from 'kysely'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import type { Projection } from '../projection.js'
import { type ActivityEntry, activityChangeOf } from './activity-entry.js'

type Trx = Parameters<Projection['apply']>[0]

// The users projection runs first (all.ts), so a user's row exists by their first event. A
// session event that lands after the deletion (a sign-out racing it) finds none and is dropped,
// as is everything of an erased user on replay: a deleted user leaves no history behind.
const userExists = async (trx: Trx, userId: string): Promise<boolean> =>
  (await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined

/**
 * Inserts the entry only if its user still has a row: the check and the write in one statement,
 * since nearly every event (each sign-in among them) writes one entry.
 */
const insertIfUserExists = async (
  trx: Trx,
  entry: ActivityEntry,
  details: object,
  recorded: RecordedEvent,
) => {
  await sql`
    insert into activity (id, user_id, type, at, ip, user_agent, details, position_tx, position_seq)
    select ${entry.id}::text, users.id, ${entry.type}::text, ${entry.at}::timestamptz, ${entry.ip}::text,
           ${entry.userAgent}::text, ${JSON.stringify(details)}::jsonb,
           ${recorded.position.tx.toString()}::int8, ${recorded.position.seq.toString()}::int8
    from users where users.id = ${entry.userId}`.execute(trx)
}

/**
 * The device of a session (and where it was, when known) as its own sign-in entry recorded it. Looked up here, in the batch's
 * transaction, because the revocation does not carry it and the sessions row may be gone; a replay
 * rebuilds the sign-in entry before the revocation, so it finds the same answer.
 */
const deviceOf = async (trx: Trx, userId: string, sessionId: string) => {
  const started = await trx
    .selectFrom('activity')
    .select(['ip', 'user_agent', sql<unknown>`details->'place'`.as('place')])
    .where('user_id', '=', userId)
    .where('type', '=', 'session.started')
    .where(sql<string>`details->>'sessionId'`, '=', sessionId)
    .executeTakeFirst()
  if (!started) return {}
  const { user_agent: userAgent, ip, place } = started
  return { userAgent, ip, ...(place ? { place } : {}) }
}

export const activityProjection: Projection = {
  name: 'activity',
  tables: ['activity'],
  async apply(trx, recorded) {
    const change = activityChangeOf(recorded)
    if (!change) return
    if (change.kind === 'forget') {
      await trx.deleteFrom('activity').where('user_id', '=', change.userId).execute()
      return
    }
    const { entry, deviceOfSession } = change
    if (!deviceOfSession) {
      await insertIfUserExists(trx, entry, entry.details, recorded)
      return
    }
    // A revocation looks up its session's device first, which is only worth doing for a user that is still there.
    if (!(await userExists(trx, entry.userId))) return
    const device = await deviceOf(trx, entry.userId, deviceOfSession)
    await insertIfUserExists(trx, entry, { ...entry.details, ...device }, recorded)
  },
}
