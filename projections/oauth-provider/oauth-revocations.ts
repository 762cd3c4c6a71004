/// What ends the OpenID provider's access tokens, written INLINE, in the append's own transaction
/// (app/server/inline-projection.ts), as the pending session revocations are: a revoked grant
/// (`grant:<id>`, whatever the reason: RFC 7009, a replayed code or refresh token, consent withdrawn,
/// the client deleted), a deleted client (`client:<id>`, its machine tokens and any grant its
/// deletion did not reach), a deleted person (`user:<id>`), and the clients an organization took
/// with it. Introspection and userinfo check a signed access token against this table: one lookup
/// by primary key, never behind the log, on every instance the moment the event commits.
///
/// Every entry is final (a grant, a client, a person never comes back), so the table is a grow-only
/// set: commit order does not matter and applying an event twice changes nothing. Only ids are read,
/// so this works on the sealed events the store writes; a replay leaves the table alone.

import { type Kysely, sql, type Transaction } from 'kysely'
import type { EventToAppend } from '../../infra/event-store/event-store.js'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their tables
type AnyDb = Kysely<any>
// biome-ignore lint/suspicious/noExplicitAny: as above
type AnyTransaction = Transaction<any>

type Appended = Pick<EventToAppend, 'id' | 'type' | 'data'>

/** The entry each event type writes, from the id field it names. */
const ENDS: Record<string, { field: string; kind: 'grant' | 'client' | 'user' }> = {
  'oauth-grant.revoked': { field: 'grantId', kind: 'grant' },
  'oauth-client.deleted': { field: 'clientId', kind: 'client' },
  'user.deleted': { field: 'userId', kind: 'user' },
}

export const endsOAuthTokens = (type: string): boolean =>
  ENDS[type] !== undefined || type === 'organization.deleted'

const idIn = (data: object, field: string): string | null => {
  const value = (data as Record<string, unknown>)[field]
  return typeof value === 'string' ? value : null
}

/** The event store's inline hook for the provider's tokens (composed in app/server/inline-projection.ts). */
export const recordOAuthRevocations = async (trx: AnyTransaction, events: readonly Appended[]) => {
  for (const event of events) {
    const ends = ENDS[event.type]
    const id = ends ? idIn(event.data, ends.field) : null
    if (ends && id)
      await sql`insert into tessera_oauth_revocations (revoked, event_id)
        values (${`${ends.kind}:${id}`}, ${event.id}::uuid) on conflict (revoked) do nothing`.execute(trx)
    const organizationId = event.type === 'organization.deleted' ? idIn(event.data, 'organizationId') : null
    if (organizationId)
      await sql`insert into tessera_oauth_revocations (revoked, event_id)
        select 'client:' || client_id, ${event.id}::uuid from oauth_clients
        where organization_id = ${organizationId} on conflict (revoked) do nothing`.execute(trx)
  }
}

/** Whether any of `keys` (`grant:<id>`, `client:<id>`, `user:<id>`) ended: one statement, by primary key. */
export const anyRevoked = async (db: AnyDb, keys: readonly string[]): Promise<boolean> => {
  const { rows } = await sql<{ revoked: string }>`
    select revoked from tessera_oauth_revocations where revoked = any(${[...keys]}::text[]) limit 1`.execute(
    db,
  )
  return rows.length > 0
}

export const oauthRevocationsMigration = {
  async up(db: AnyDb): Promise<void> {
    await db.schema
      .createTable('tessera_oauth_revocations')
      .addColumn('revoked', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'uuid', (c) => c.notNull())
      .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute()
    // What ended before this table existed, from the SQL log (ids are never sealed). A KurrentDB log
    // lives elsewhere: there the grants' own streams were the check until now, and stay the record.
    await sql`
      do $$ begin
        if to_regclass('tessera_events') is not null then
          insert into tessera_oauth_revocations (revoked, event_id)
          select case type when 'oauth-grant.revoked' then 'grant:' || (data->>'grantId')
                           when 'oauth-client.deleted' then 'client:' || (data->>'clientId')
                           else 'user:' || (data->>'userId') end, event_id
          from tessera_events
          where type in ('oauth-grant.revoked', 'oauth-client.deleted', 'user.deleted')
          on conflict (revoked) do nothing;
        end if;
      end $$`.execute(db)
  },
}
