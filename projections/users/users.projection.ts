/// Projects user events into `users` and `accounts`.

import { sql } from 'kysely'
import { CREDENTIAL_PROVIDER, type UserEvent } from '../../domain/user/user.events.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'
import { insertRow, updateRows } from '../runner/bound-statements.js'
import { applyLastSeen, removeLastSeen } from './last-seen.js'
import type { UserRow } from './users.table.js'

/** Re-exported for the repositories of this read model; the name is the domain's. */
export { CREDENTIAL_PROVIDER }

type Trx = Parameters<Projection['apply']>[0]

/**
 * Sets the credential account's password, or makes that account when the user has none: two writes
 * that need no answer, as the projector's batched path requires (runner/write-behind.ts).
 */
const setPassword = async (
  trx: Trx,
  userId: string,
  passwordHash: string,
  at: Date,
  newAccountId: string,
) => {
  await trx
    .updateTable('accounts')
    .set({ password: passwordHash, updated_at: at })
    .where('user_id', '=', userId)
    .where('provider_id', '=', CREDENTIAL_PROVIDER)
    .execute()
  await sql`
    insert into accounts (id, user_id, provider_id, account_id, password, created_at, updated_at)
    select ${newAccountId}::text, ${userId}::text, ${CREDENTIAL_PROVIDER}::text, ${userId}::text,
           ${passwordHash}::text, ${at}::timestamptz, ${at}::timestamptz
    where not exists (
      select from accounts where user_id = ${userId} and provider_id = ${CREDENTIAL_PROVIDER})`.execute(trx)
}

const insertCredential = (trx: Trx, userId: string, passwordHash: string, at: Date, accountId: string) =>
  insertRow(trx, 'accounts', {
    id: accountId,
    user_id: userId,
    provider_id: CREDENTIAL_PROVIDER,
    account_id: userId,
    password: passwordHash,
    created_at: at,
    updated_at: at,
  })

type Registered = Extract<UserEvent, { type: 'user.registered' }>

/** The row `user.registered` makes. Sign-up answers with it rather than reading it back. */
export const registeredUserRow = (data: Registered['data'], at: Date): UserRow => ({
  id: data.userId,
  email: data.email,
  name: data.name,
  image: data.image,
  email_verified: data.emailVerified,
  username: data.username ?? null,
  display_username: data.displayUsername ?? null,
  role: null,
  banned: false,
  ban_reason: null,
  ban_expires: null,
  created_at: at,
  updated_at: at,
})

const touchUser = (trx: Trx, userId: string, changes: object, at: Date) =>
  updateRows(trx, 'users', { ...changes, updated_at: at }, { id: userId })

export const usersProjection: Projection = {
  name: 'users',
  tables: ['users', 'accounts', 'user_last_seen'],
  // The operator directory's orders and search (admin/, last-seen.ts); this projection finds users
  // by id, and last seen by its key.
  readerIndexes: [
    'users_email_trgm',
    'users_name_trgm',
    'user_last_seen_order',
    'users_role_order',
    'users_created_at',
    'users_name',
  ],
  handles: eventTypes('user.', 'session.started'),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    // An erased user (deleted, then its data key destroyed) has nothing left to show, and its
    // events read with nulls where these tables need values: a replay leaves no row for it. The
    // deletion itself still applies, in case it is projected only after the erasure.
    if (recorded.metadata.erased && recorded.type !== 'user.deleted') return
    if (recorded.type === 'session.started') return applyLastSeen(trx, recorded)
    const event = recorded as unknown as UserEvent & typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'user.registered': {
        const { userId, credential } = event.data
        await insertRow(trx, 'users', registeredUserRow(event.data, at))
        // The user is new, so is the credential account: no update to try first.
        if (credential) await insertCredential(trx, userId, credential.passwordHash, at, credential.accountId)
        return
      }
      case 'user.email-verified':
        await touchUser(trx, event.data.userId, { email_verified: true }, at)
        return
      case 'user.email-changed':
        await touchUser(
          trx,
          event.data.userId,
          { email: event.data.email, email_verified: event.data.emailVerified },
          at,
        )
        return
      case 'user.profile-updated': {
        const { name, image } = event.data
        await touchUser(
          trx,
          event.data.userId,
          { ...(name !== undefined ? { name } : {}), ...(image !== undefined ? { image } : {}) },
          at,
        )
        return
      }
      case 'user.username-changed': {
        const { userId, username, displayUsername } = event.data
        await touchUser(trx, userId, { username, display_username: displayUsername }, at)
        return
      }
      // A reset gives a user without a password a credential account, keyed by the user id.
      case 'user.password-reset':
      case 'user.password-changed':
        await setPassword(trx, event.data.userId, event.data.passwordHash, at, event.data.userId)
        return
      case 'user.password-set':
        await setPassword(trx, event.data.userId, event.data.passwordHash, at, event.data.accountId)
        return
      case 'user.password-removed':
        await trx
          .deleteFrom('accounts')
          .where('user_id', '=', event.data.userId)
          .where('provider_id', '=', CREDENTIAL_PROVIDER)
          .execute()
        return
      case 'user.role-set':
        await touchUser(trx, event.data.userId, { role: event.data.role }, at)
        return
      case 'user.banned': {
        const { userId, reason, expiresAt } = event.data
        const banExpires = expiresAt === null ? null : new Date(expiresAt)
        await touchUser(trx, userId, { banned: true, ban_reason: reason, ban_expires: banExpires }, at)
        return
      }
      case 'user.ban-details-set': {
        const { userId, reason, expiresAt } = event.data
        const banExpires = expiresAt === null ? null : new Date(expiresAt)
        await touchUser(trx, userId, { ban_reason: reason, ban_expires: banExpires }, at)
        return
      }
      case 'user.unbanned':
        await touchUser(trx, event.data.userId, { banned: false, ban_reason: null, ban_expires: null }, at)
        return
      case 'user.deleted':
        await trx.deleteFrom('accounts').where('user_id', '=', event.data.userId).execute()
        await trx.deleteFrom('users').where('id', '=', event.data.userId).execute()
        await removeLastSeen(trx, event.data.userId)
        return
    }
  },
}
