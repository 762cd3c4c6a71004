/// Projects every user's events into `activity`, their account history. A deleted user's
/// history goes with them.

import { sql } from 'kysely'
import { declarationOf, knownEventTypes } from '../../domain/events.js'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import type { Projection } from '../projection.js'
import { bound } from '../runner/bound-statements.js'
import { READS_NONE_OF_ITS_SHAPE } from '../runner/statement-shape.js'
import { type ActivityEntry, activityChangeOf } from './activity-entry.js'

type Trx = Parameters<Projection['apply']>[0]

// The users projection runs first (all.ts), so a user's row exists by their first event. A
// session event that lands after the deletion (a sign-out racing it) finds none and is dropped,
// as is everything of an erased user on replay: a deleted user leaves no history behind.

/**
 * The entry as a row of values, named as activity's columns (and the session a revocation names):
 * one tuple of parameters, so that a batch of entries goes as one statement (runner/write-behind.ts).
 */
const entryRow = (entry: ActivityEntry, recorded: RecordedEvent, sessionId: string | null) => sql`
  (values (${entry.id}::text, ${entry.userId}::text, ${entry.type}::text, ${entry.at}::timestamptz,
           ${entry.ip}::text, ${entry.userAgent}::text, ${JSON.stringify(entry.details)}::jsonb,
           ${recorded.position.tx.toString()}::int8, ${recorded.position.seq.toString()}::int8, ${sessionId}::text))
  as entry (id, user_id, type, at, ip, user_agent, details, position_tx, position_seq, session_id)`

/**
 * Inserts the entry only if its user still has a row: the check and the write in one statement,
 * since nearly every event (each sign-in among them) writes one entry.
 */
const insertIfUserExists = async (trx: Trx, entry: ActivityEntry, recorded: RecordedEvent) => {
  // entryRow's tuple written out (its session null): the text is made once, not per entry.
  await trx.executeQuery(bound`
    insert into activity (id, user_id, type, at, ip, user_agent, details, position_tx, position_seq)
    select entry.id, entry.user_id, entry.type, entry.at, entry.ip, entry.user_agent, entry.details,
           entry.position_tx, entry.position_seq
    from (values (${entry.id}::text, ${entry.userId}::text, ${entry.type}::text, ${entry.at}::timestamptz,
           ${entry.ip}::text, ${entry.userAgent}::text, ${JSON.stringify(entry.details)}::jsonb,
           ${recorded.position.tx.toString()}::int8, ${recorded.position.seq.toString()}::int8, ${null}::text))
      as entry (id, user_id, type, at, ip, user_agent, details, position_tx, position_seq, session_id)
    where exists (select from users where users.id = entry.user_id)`)
}

/**
 * A revocation's entry, with the device of its session (and where it was, when known) as the
 * session's own sign-in entry recorded it: looked up in the same statement, because the revocation
 * does not carry it and the sessions row may be gone; a replay rebuilds the sign-in entry before
 * the revocation, so it finds the same answer. Only for a user that is still there.
 *
 * It reads only `session.started` entries, and inserts only a revocation's: it never reads what
 * another revocation's entry inserts, as its text says to the projector's batched path, where the
 * revocations of a batch then go as one statement (runner/statement-plan.ts).
 */
const insertRevocation = async (
  trx: Trx,
  entry: ActivityEntry,
  sessionId: string,
  recorded: RecordedEvent,
) => {
  await sql`
    insert into activity (id, user_id, type, at, ip, user_agent, details, position_tx, position_seq)
    ${sql.raw(READS_NONE_OF_ITS_SHAPE)}select entry.id, entry.user_id, entry.type, entry.at, entry.ip, entry.user_agent,
           entry.details || coalesce((
             select (array_agg(
               jsonb_build_object('userAgent', started.user_agent, 'ip', started.ip) ||
               case when jsonb_typeof(started.details->'place') in ('object', 'array')
                    then jsonb_build_object('place', started.details->'place') else '{}'::jsonb end))[1]
             from activity started
             where started.user_id = entry.user_id and started.type = 'session.started'
               and started.details->>'sessionId' = entry.session_id), '{}'::jsonb),
           entry.position_tx, entry.position_seq
    from ${entryRow(entry, recorded, sessionId)}
    where exists (select from users where users.id = entry.user_id)`.execute(trx)
}

/** A declaration of what the entry shows: not none (null), not `forget`. */
const recordsEntry = (activity: unknown): boolean => typeof activity === 'object' && activity !== null

export const activityProjection: Projection = {
  name: 'activity',
  tables: ['activity'],
  // The types whose declaration says what they show, or that they forget the history.
  handles: new Set(knownEventTypes().filter((type) => declarationOf(type)?.activity !== undefined)),
  // Where the entry came from is read of the types that record an entry (activity-entry.ts whereFrom).
  readsPersonalMetadata: new Set(
    knownEventTypes().filter((type) => recordsEntry(declarationOf(type)?.activity)),
  ),
  async apply(trx, recorded) {
    const change = activityChangeOf(recorded)
    if (!change) return
    if (change.kind === 'forget') {
      await trx.deleteFrom('activity').where('user_id', '=', change.userId).execute()
      return
    }
    const { entry, deviceOfSession } = change
    if (!deviceOfSession) {
      await insertIfUserExists(trx, entry, recorded)
      return
    }
    await insertRevocation(trx, entry, deviceOfSession, recorded)
  },
}
