/// What commits with the append that causes it, never behind the projector: what ends a session
/// (pending revocations), what stops an API key verifying, and an erasure (the deleted user's data
/// key is destroyed as the deletion commits). The SQL store runs it in the append's transaction; on
/// KurrentDB it runs right after the append, exactly once (kurrentdb/append-effects.ts). What ends
/// the OpenID provider's tokens is written here too.

import type { Transaction } from 'kysely'
import type { EventToAppend } from '../../infra/event-store/event-store.js'
import { eraseInline, erasesSubject } from '../../infra/event-store/personal-data/erasure.js'
import type { InlineProjection } from '../../infra/event-store/sql-event-store.js'
import {
  changesApiKeyUsage,
  recordApiKeyRevocations,
} from '../../projections/api-keys/api-key-revocations.js'
import {
  endsOAuthTokens,
  recordOAuthRevocations,
} from '../../projections/oauth-provider/oauth-revocations.js'
import { changesScimAccess, recordScimAccess } from '../../projections/scim/scim-inline.js'
import { recordRevocations, revokes } from '../../projections/sessions/pending-revocations.js'

const apply = async (trx: Transaction<unknown>, events: readonly EventToAppend[]): Promise<void> => {
  await recordRevocations(trx, events)
  await recordApiKeyRevocations(trx, events)
  await eraseInline(trx, events)
  await recordScimAccess(trx, events)
  await recordOAuthRevocations(trx, events)
}

/** Each hook writes for these types only; an append of any other needs no transaction of its own. */
const affects = (events: readonly EventToAppend[]): boolean =>
  events.some(
    (event) =>
      revokes(event.type) !== undefined ||
      changesApiKeyUsage(event.type) ||
      erasesSubject(event.type) ||
      changesScimAccess(event.type) ||
      endsOAuthTokens(event.type),
  )

export const inline: InlineProjection = Object.assign(apply, { affects })
