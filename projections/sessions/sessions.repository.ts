/// Queries over the sessions read model.

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'
import type { UserRow } from '../users/users.table.js'
import { notPendingRevocation } from './pending-revocations.js'
import type { SessionLastUseTable } from './session-last-use.js'
import type { SessionRow } from './sessions.table.js'

export type SessionWithUser = { session: SessionRow; user: UserRow }

export const findSessionByTokenHash = async (
  db: Kysely<Database>,
  tokenHash: string,
): Promise<SessionWithUser | undefined> => {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as s_id',
      'sessions.user_id as s_user_id',
      'sessions.token_hash as s_token_hash',
      'sessions.expires_at as s_expires_at',
      'sessions.ip_address as s_ip_address',
      'sessions.user_agent as s_user_agent',
      'sessions.place_country as s_place_country',
      'sessions.place_city as s_place_city',
      'sessions.remember_me as s_remember_me',
      'sessions.active_organization_id as s_active_organization_id',
      'sessions.active_team_id as s_active_team_id',
      'sessions.impersonated_by as s_impersonated_by',
      'sessions.amr as s_amr',
      'sessions.created_at as s_created_at',
      'sessions.updated_at as s_updated_at',
      'users.id',
      'users.email',
      'users.name',
      'users.image',
      'users.email_verified',
      'users.username',
      'users.display_username',
      'users.role',
      'users.banned',
      'users.ban_reason',
      'users.ban_expires',
      'users.created_at',
      'users.updated_at',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    // A revocation committed but not yet projected already counts (pending-revocations.ts).
    .where(notPendingRevocation)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    session: {
      id: row.s_id,
      user_id: row.s_user_id,
      token_hash: row.s_token_hash,
      expires_at: row.s_expires_at,
      ip_address: row.s_ip_address,
      user_agent: row.s_user_agent,
      place_country: row.s_place_country,
      place_city: row.s_place_city,
      remember_me: row.s_remember_me,
      active_organization_id: row.s_active_organization_id,
      active_team_id: row.s_active_team_id,
      impersonated_by: row.s_impersonated_by,
      amr: row.s_amr,
      created_at: row.s_created_at,
      updated_at: row.s_updated_at,
    },
    user: {
      id: row.id,
      email: row.email,
      name: row.name,
      image: row.image,
      email_verified: row.email_verified,
      username: row.username,
      display_username: row.display_username,
      role: row.role,
      banned: row.banned,
      ban_reason: row.ban_reason,
      ban_expires: row.ban_expires,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  }
}

export const listSessionsOfUser = (db: Kysely<Database>, userId: string): Promise<SessionRow[]> =>
  db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where(notPendingRevocation)
    .orderBy('created_at', 'desc')
    .execute()

/** A session as its owner lists it, with its last recorded use (session-last-use.ts) when any. */
export type ListedSessionRow = SessionRow & { last_used_at: Date | null }

/**
 * The sessions a user lists as their own devices: live in the read model, not revoked, not opened
 * by an operator impersonating them; newest first, each with its last recorded use. One query on
 * the `user_id` index, its last uses joined by primary key.
 */
export const listOwnSessionsOfUser = (db: Kysely<Database>, userId: string): Promise<ListedSessionRow[]> =>
  (db as Kysely<Database & { tessera_session_last_use: SessionLastUseTable }>)
    .selectFrom('sessions')
    .leftJoin('tessera_session_last_use', 'tessera_session_last_use.session_id', 'sessions.id')
    .selectAll('sessions')
    .select('tessera_session_last_use.last_used_at')
    .where('sessions.user_id', '=', userId)
    .where('sessions.impersonated_by', 'is', null)
    .where(notPendingRevocation)
    .orderBy('sessions.created_at', 'desc')
    .execute()

export const findSessionById = (db: Kysely<Database>, id: string): Promise<SessionRow | undefined> =>
  db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst()

/** The id of the session with this token hash, pending revocation or not (an operator's handle). */
export const findSessionIdByTokenHash = async (
  db: Kysely<Database>,
  tokenHash: string,
): Promise<string | null> =>
  (await db.selectFrom('sessions').select('id').where('token_hash', '=', tokenHash).executeTakeFirst())?.id ??
  null
