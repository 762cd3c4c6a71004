/// Projects a verified user's two-step email change into `pending_email_changes`: asked for
/// (the current address must approve), approved (the new address must verify), then gone once the
/// address changes or the user is deleted.

import type { UserEvent } from '../../domain/user/user.events.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'

type Trx = Parameters<Projection['apply']>[0]

const forget = (trx: Trx, userId: string) =>
  trx.deleteFrom('pending_email_changes').where('user_id', '=', userId).execute()

// The approval keeps the request's time when it approves the change on file; an approval of an
// older request (its link still live after a newer one replaced it) starts the story anew.
const approved = async (trx: Trx, userId: string, newEmail: string, at: Date) => {
  const current = await trx
    .selectFrom('pending_email_changes')
    .select(['new_email', 'requested_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
  const requestedAt = current?.new_email === newEmail ? current.requested_at : at
  await forget(trx, userId)
  await trx
    .insertInto('pending_email_changes')
    .values({
      user_id: userId,
      new_email: newEmail,
      step: 'verify-new',
      requested_at: requestedAt,
      step_at: at,
    })
    .execute()
}

export const pendingEmailChangesProjection: Projection = {
  name: 'pending-email-changes',
  tables: ['pending_email_changes'],
  handles: eventTypes(
    'user.email-change-requested',
    'user.email-change-confirmed',
    'user.email-changed',
    'user.deleted',
  ),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    // An erased user's events read with a null address: a replay leaves no row for them (their
    // deletion, further on, would remove it anyway).
    if (recorded.metadata.erased && recorded.type !== 'user.deleted') return
    const event = recorded as unknown as UserEvent & typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'user.email-change-requested': {
        const { userId, newEmail } = event.data
        await forget(trx, userId)
        await trx
          .insertInto('pending_email_changes')
          .values({
            user_id: userId,
            new_email: newEmail,
            step: 'confirm-current',
            requested_at: at,
            step_at: at,
          })
          .execute()
        return
      }
      case 'user.email-change-confirmed':
        await approved(trx, event.data.userId, event.data.newEmail, at)
        return
      case 'user.email-changed':
      case 'user.deleted':
        await forget(trx, event.data.userId)
        return
    }
  },
}
