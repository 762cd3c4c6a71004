/// Read model: every operator action across the service, for the console's audit view. An event
/// is an operator action when someone acted on another person's account (a user who is not its
/// subject, a server key, or anyone through an impersonation session), or when roles changed (the
/// system's ADMIN_EMAILS grant included). Details are what the subject's own history shows; they
/// are blanked when that person is erased, leaving who did what, and when.

import type { Kysely } from 'kysely'
import { declarationOf, knownEventTypes } from '../../domain/events.js'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import { NO_EVENT_TYPES, type Projection } from '../projection.js'
import type { AdminActionRow, AdminActionsTable } from './admin-actions.table.js'

export type { AdminActionRow, AdminActionsTable } from './admin-actions.table.js'

/** A session's refresh is never anyone's action on an account. */
const concernsAccounts = (type: string) => /^(user|session)\./.test(type) && type !== 'session.refreshed'

/** The row an event makes in the audit view, or null when it is not an operator action. */
export const adminActionOf = (event: Pick<RecordedEvent, 'id' | 'type' | 'data' | 'metadata'>) => {
  if (!concernsAccounts(event.type)) return null
  const declaration = declarationOf(event.type)
  if (!declaration) return null
  const data = event.data as Record<string, unknown>
  const subject = declaration.subject(data, event.metadata)
  const { actor, impersonatedBy } = event.metadata
  const onSomeoneElse =
    actor.type === 'server' ||
    (actor.type === 'user' && actor.userId !== subject) ||
    impersonatedBy !== undefined
  if (!onSomeoneElse && event.type !== 'user.role-set') return null
  const activity = declaration.activity
  const details = activity && activity !== 'forget' ? activity.details(data) : {}
  return {
    id: event.id,
    at: new Date(event.metadata.at),
    actor_type: actor.type,
    actor_id: actor.type === 'user' ? actor.userId : actor.type === 'server' ? actor.name : null,
    impersonated_by: impersonatedBy ?? null,
    action: event.type,
    subject_user_id: subject,
    details: JSON.stringify(event.metadata.erased ? {} : details),
  }
}

export const adminActionsProjection: Projection = {
  name: 'admin-actions',
  tables: ['admin_actions'],
  // user.deleted, the one it acts on without a row of its own, is a user event.
  handles: new Set(knownEventTypes().filter(concernsAccounts)),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    const row = adminActionOf(recorded)
    if (row)
      await trx
        .insertInto('admin_actions')
        .values(row)
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    // An erased person's details go; the record that someone acted on the account stays.
    if (recorded.type === 'user.deleted') {
      const { userId } = recorded.data as { userId: string }
      await trx
        .updateTable('admin_actions')
        .set({ details: '{}' })
        .where('subject_user_id', '=', userId)
        .execute()
    }
  },
}

export type AdminActionFilter = { actor?: string; action?: string; limit: number; offset: number }

/**
 * What an operator does to an account through the admin API (create, edit, role, ban, password,
 * sessions, impersonation, removal). Other entries of the table (a person's own deletion notice, a
 * mail sent on their behalf) are the service's bookkeeping, not an operator's act, and stay out of
 * the audit; anything done through an impersonation session stays in, whatever it is.
 */
export const OPERATOR_ACTIONS = [
  'user.registered',
  'user.profile-updated',
  'user.email-changed',
  'user.role-set',
  'user.banned',
  'user.ban-details-set',
  'user.unbanned',
  'user.password-set',
  'user.password-changed',
  'user.deleted',
  'session.started',
  'session.revoked',
] as const

/** An action with the names and addresses of the acting user and of the account, while they exist. */
export type AdminActionWithEmails = AdminActionRow & {
  actor_email: string | null
  actor_name: string | null
  subject_email: string | null
  subject_name: string | null
}

type AuditTables = {
  admin_actions: AdminActionsTable
  users: { id: string; email: string; name: string }
}

// biome-ignore lint/suspicious/noExplicitAny: the repository serves any schema that has the tables
export const listAdminActions = async (db: Kysely<any>, filter: AdminActionFilter) => {
  const typed = db as unknown as Kysely<AuditTables>
  let query = typed
    .selectFrom('admin_actions')
    .where((eb) => eb.or([eb('action', 'in', OPERATOR_ACTIONS), eb('impersonated_by', 'is not', null)]))
    // An expired ban lifts itself: the service's doing, not an operator's.
    .where((eb) => eb.not(eb('action', '=', 'user.unbanned').and('actor_type', '=', 'system')))
  if (filter.actor?.includes('@')) {
    // An operator is found by address too: it is what the console shows of them. Addresses are stored
    // lowercase, so one typed differently still finds its account.
    const email = filter.actor.trim().toLowerCase()
    query = query
      .where('admin_actions.actor_type', '=', 'user')
      .where('actor_id', 'in', typed.selectFrom('users').select('id').where('email', '=', email))
  } else if (filter.actor) query = query.where('actor_id', '=', filter.actor)
  if (filter.action) query = query.where('action', '=', filter.action)
  // Addresses come from the users table, so an erased person's address is gone from here too.
  const [rows, count] = await Promise.all([
    query
      .leftJoin('users as actor', (join) =>
        join.onRef('actor.id', '=', 'admin_actions.actor_id').on('admin_actions.actor_type', '=', 'user'),
      )
      .leftJoin('users as subject', 'subject.id', 'admin_actions.subject_user_id')
      .selectAll('admin_actions')
      .select([
        'actor.email as actor_email',
        'actor.name as actor_name',
        'subject.email as subject_email',
        'subject.name as subject_name',
      ])
      .orderBy('admin_actions.at', 'desc')
      .orderBy('admin_actions.id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { actions: rows as AdminActionWithEmails[], total: Number(count.n) }
}

export const adminActionsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('admin_actions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'timestamptz', (c) => c.notNull())
      .addColumn('actor_type', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('impersonated_by', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('subject_user_id', 'text')
      .addColumn('details', 'jsonb', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('admin_actions_at').on('admin_actions').columns(['at', 'id']).execute()
    await db.schema
      .createIndex('admin_actions_actor')
      .on('admin_actions')
      .columns(['actor_id', 'at'])
      .execute()
    await db.schema
      .createIndex('admin_actions_subject')
      .on('admin_actions')
      .column('subject_user_id')
      .execute()
  },
}
