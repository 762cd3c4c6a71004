/// Queries over `scim_users`, always within one connection: a connection sees only its own people.

import { type Expression, type Kysely, sql } from 'kysely'
import type { Database } from '../database.js'

type Db = Kysely<Database>

/** A provisioned person with what the account holds of them (name, address). */
export type ScimUserView = {
  user_id: string
  connection_id: string
  organization_id: string
  user_name: string
  external_id: string | null
  active: boolean
  created_at: Date
  updated_at: Date
  name: string
  email: string
}

/** One `eq` filter the list supports (case-insensitive, as the plugin's). */
export type ScimUserFilter = { attribute: 'userName' | 'externalId' | 'emails.value' | 'id'; value: string }

const viewQuery = (db: Db, connectionId: string | Expression<string>) =>
  db
    .selectFrom('scim_users')
    .innerJoin('users', 'users.id', 'scim_users.user_id')
    .select([
      'scim_users.user_id',
      'scim_users.connection_id',
      'scim_users.organization_id',
      'scim_users.user_name',
      'scim_users.external_id',
      'scim_users.active',
      'scim_users.created_at',
      'scim_users.updated_at',
      'users.name',
      'users.email',
    ])
    .where('scim_users.connection_id', '=', connectionId)

export const findScimUser = (
  db: Db,
  connectionId: string,
  userId: string,
): Promise<ScimUserView | undefined> =>
  viewQuery(db, connectionId).where('scim_users.user_id', '=', userId).executeTakeFirst()

/** The value a filter compares, as its column holds it (case-insensitive attributes lowered). */
export const filterValue = ({ attribute, value }: ScimUserFilter): string =>
  attribute === 'id' ? value : attribute === 'emails.value' ? value.trim().toLowerCase() : value.toLowerCase()

/** A connection's people (the connection: its id, or an expression of the statement) matching `filters`. */
export const filteredView = (
  db: Db,
  connectionId: string | Expression<string>,
  filters: readonly ScimUserFilter[],
) => {
  let query = viewQuery(db, connectionId)
  for (const filter of filters) {
    const value = filterValue(filter)
    if (filter.attribute === 'userName') query = query.where('scim_users.user_name_lower', '=', value)
    else if (filter.attribute === 'externalId')
      query = query.where('scim_users.external_id_lower', '=', value)
    else if (filter.attribute === 'emails.value') query = query.where('users.email', '=', value)
    else query = query.where('scim_users.user_id', '=', value)
  }
  return query
}

/** A page in creation order, and how many match in all (SCIM's `totalResults`). */
export const listScimUsers = async (
  db: Db,
  connectionId: string,
  filters: readonly ScimUserFilter[],
  page: { offset: number; count: number },
): Promise<{ total: number; rows: ScimUserView[] }> => {
  // A filter (an IdP asking whether a userName exists) matches a handful of rows: the page and the
  // total come in one statement. The whole directory is counted apart, so its page stays a top-N read.
  if (filters.length > 0 && page.count > 0) {
    const counted = await pageOf(filteredView(db, connectionId, filters), page)
      .select(sql<string>`count(scim_users.user_id) over ()`.as('total'))
      .execute()
    const [first] = counted
    if (first) return { total: Number(first.total), rows: counted.map(({ total: _, ...row }) => row) }
    if (page.offset === 0) return { total: 0, rows: [] }
  }
  const total = await countOf(filteredView(db, connectionId, filters))
  if (page.count === 0 || page.offset >= total) return { total, rows: [] }
  const rows = await pageOf(filteredView(db, connectionId, filters), page).execute()
  return { total, rows }
}

type Filtered = ReturnType<typeof filteredView>

const countOf = async (query: Filtered): Promise<number> => {
  const counted = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(counted.n)
}

const pageOf = (query: Filtered, page: { offset: number; count: number }) =>
  query.orderBy('scim_users.created_at').orderBy('scim_users.user_id').offset(page.offset).limit(page.count)

/** What a connection has done, for the organization's owners: its people and its last change. */
export type ConnectionDirectory = {
  total: number
  active: number
  /** When the directory last changed someone or a group (null: never). */
  lastSyncAt: Date | null
  /** The people it changed most recently, newest first. */
  latest: ScimUserView[]
}

const asDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string | Date)

export const connectionDirectory = async (
  db: Db,
  organizationId: string,
  connectionId: string,
  latest = 20,
): Promise<ConnectionDirectory> => {
  const counts = await db
    .selectFrom('scim_users')
    .select([sql<string>`count(*)`.as('total'), sql<string>`count(*) filter (where active)`.as('active')])
    .where('connection_id', '=', connectionId)
    .executeTakeFirstOrThrow()
  // The audit feed keeps every provisioning step, removals and groups included (scim-activity.ts).
  const synced = await db
    .selectFrom('organization_activity')
    .select(sql<Date | string | null>`max(at)`.as('at'))
    .where('organization_id', '=', organizationId)
    .where('type', 'like', 'scim.%')
    .where('type', 'not like', 'scim.credential-%')
    .where(sql<boolean>`(details::jsonb ->> 'connectionId') = ${connectionId}`)
    .executeTakeFirst()
  const people = await viewQuery(db, connectionId)
    .orderBy('scim_users.updated_at', 'desc')
    .orderBy('scim_users.user_id')
    .limit(latest)
    .execute()
  return {
    total: Number(counts.total),
    active: Number(counts.active),
    lastSyncAt: asDate(synced?.at),
    latest: people,
  }
}
