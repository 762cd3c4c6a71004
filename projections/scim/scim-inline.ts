/// What directory sync writes INLINE, in the append's own transaction (app/server/inline-projection.ts),
/// because it decides who gets in and must not trail the log:
///
/// - `tessera_scim_deactivations`: people a directory deactivated. Sign-in reads it, so a
///   deactivation refuses the next sign-in on every instance the moment it commits, however far the
///   projector lags. (Their sessions end through the pending revocations, as a ban's do.)
/// - `tessera_scim_credentials`: the organizations' own SCIM credentials, by token hash. A SCIM call
///   reads it, so a revoked credential stops at the commit of its revocation.
///
/// Only ids, hashes and times are read from the events, so this works on the sealed events the
/// store writes. Both tables are rebuilt by nothing but these events; a replay leaves them alone.

import { type Kysely, sql, type Transaction } from 'kysely'
import type { EventToAppend } from '../../infra/event-store/event-store.js'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their tables
type AnyDb = Kysely<any>

export type ScimCredentialRow = {
  token_hash: string
  credential_id: string
  organization_id: string
  connection_id: string
  scopes: string
  expires_at: Date | null
  created_at: Date
  revoked_at: Date | null
}

type Tables = {
  tessera_scim_deactivations: { user_id: string; event_id: string }
  tessera_scim_credentials: ScimCredentialRow
}

const INLINE_TYPES = new Set([
  'scim.user-deactivated',
  'scim.user-reactivated',
  'scim.user-deprovisioned',
  'scim.credential-issued',
  'scim.credential-revoked',
])

export const changesScimAccess = (type: string): boolean => INLINE_TYPES.has(type)

type Data = Record<string, unknown>

const text = (data: Data, key: string): string => String(data[key])

const applyOne = async (trx: Transaction<Tables>, event: Pick<EventToAppend, 'id' | 'type' | 'data'>) => {
  const data = event.data as Data
  switch (event.type) {
    case 'scim.user-deactivated':
      await trx
        .insertInto('tessera_scim_deactivations')
        .values({ user_id: text(data, 'userId'), event_id: event.id })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute()
      return
    case 'scim.user-reactivated':
    case 'scim.user-deprovisioned':
      await trx.deleteFrom('tessera_scim_deactivations').where('user_id', '=', text(data, 'userId')).execute()
      return
    case 'scim.credential-issued':
      await trx
        .insertInto('tessera_scim_credentials')
        .values({
          token_hash: text(data, 'tokenHash'),
          credential_id: text(data, 'credentialId'),
          organization_id: text(data, 'organizationId'),
          connection_id: text(data, 'connectionId'),
          scopes: JSON.stringify(data.scopes),
          expires_at: data.expiresAt ? new Date(text(data, 'expiresAt')) : null,
          created_at: new Date(text(data, 'createdAt')),
          revoked_at: null,
        })
        .onConflict((oc) => oc.column('token_hash').doNothing())
        .execute()
      return
    case 'scim.credential-revoked':
      await trx
        .updateTable('tessera_scim_credentials')
        .set({ revoked_at: new Date(text(data, 'revokedAt')) })
        .where('credential_id', '=', text(data, 'credentialId'))
        .execute()
      return
  }
}

export const recordScimAccess = async (
  // biome-ignore lint/suspicious/noExplicitAny: the store's transaction, of any schema
  trx: Transaction<any>,
  events: readonly Pick<EventToAppend, 'id' | 'type' | 'data'>[],
): Promise<void> => {
  for (const event of events)
    if (changesScimAccess(event.type)) await applyOne(trx as Transaction<Tables>, event)
}

/** Whether a directory keeps the person deactivated (the inline record, never behind the log). */
export const isDeactivated = async (db: AnyDb, userId: string): Promise<boolean> =>
  (await (db as Kysely<Tables>)
    .selectFrom('tessera_scim_deactivations')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst()) !== undefined

/** The columns named, not `*`: the statement is then prepared once per connection (pg-prepared.ts). */
export const findScimCredentialByHash = (db: AnyDb, tokenHash: string) =>
  (db as Kysely<Tables>)
    .selectFrom('tessera_scim_credentials')
    .select(['organization_id', 'connection_id', 'credential_id', 'revoked_at', 'expires_at', 'scopes'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst()

export const scimCredentialsOf = (db: AnyDb, organizationId: string) =>
  (db as Kysely<Tables>)
    .selectFrom('tessera_scim_credentials')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .execute()

export const scimInlineMigration = {
  async up(db: AnyDb): Promise<void> {
    await db.schema
      .createTable('tessera_scim_deactivations')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'uuid', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('tessera_scim_credentials')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('connection_id', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('revoked_at', 'timestamptz')
      .execute()
    await db.schema
      .createIndex('tessera_scim_credentials_organization')
      .on('tessera_scim_credentials')
      .column('organization_id')
      .execute()
  },
}
