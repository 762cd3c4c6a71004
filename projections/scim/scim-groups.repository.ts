/// Queries over `scim_groups`, always within one connection: a connection sees only its own groups.

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'

type Db = Kysely<Database>

export type ScimGroupView = {
  group_id: string
  connection_id: string
  organization_id: string
  display_name: string
  external_id: string | null
  created_at: Date
  updated_at: Date
}

export type ScimGroupMemberView = { group_id: string; user_id: string; name: string }

/** One `eq` filter the Group list supports (case-insensitive, as the plugin's). */
export type ScimGroupFilter = { attribute: 'displayName' | 'externalId' | 'id'; value: string }

const groups = (db: Db, connectionId: string) =>
  db
    .selectFrom('scim_groups')
    .select([
      'group_id',
      'connection_id',
      'organization_id',
      'display_name',
      'external_id',
      'created_at',
      'updated_at',
    ])
    .where('connection_id', '=', connectionId)

export const findScimGroup = (db: Db, connectionId: string, groupId: string) =>
  groups(db, connectionId).where('group_id', '=', groupId).executeTakeFirst()

const filtered = (db: Db, connectionId: string, filters: readonly ScimGroupFilter[]) => {
  let query = groups(db, connectionId)
  for (const { attribute, value } of filters) {
    if (attribute === 'displayName') query = query.where('display_name_lower', '=', value.toLowerCase())
    else if (attribute === 'externalId') query = query.where('external_id_lower', '=', value.toLowerCase())
    else query = query.where('group_id', '=', value)
  }
  return query
}

export const listScimGroups = async (
  db: Db,
  connectionId: string,
  filters: readonly ScimGroupFilter[],
  page: { offset: number; count: number },
): Promise<{ total: number; rows: ScimGroupView[] }> => {
  const counted = await filtered(db, connectionId, filters)
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  const total = Number(counted.n)
  if (page.count === 0 || page.offset >= total) return { total, rows: [] }
  const rows = await filtered(db, connectionId, filters)
    .orderBy('created_at')
    .orderBy('group_id')
    .offset(page.offset)
    .limit(page.count)
    .execute()
  return { total, rows }
}

/** The members of these groups, with the name a Group's `members[].display` shows. */
export const scimGroupMembers = async (
  db: Db,
  groupIds: readonly string[],
): Promise<ScimGroupMemberView[]> =>
  groupIds.length === 0
    ? []
    : db
        .selectFrom('scim_group_members')
        .innerJoin('users', 'users.id', 'scim_group_members.user_id')
        .select(['scim_group_members.group_id', 'scim_group_members.user_id', 'users.name'])
        .where('scim_group_members.group_id', 'in', groupIds)
        .orderBy('scim_group_members.created_at')
        .orderBy('scim_group_members.user_id')
        .execute()

/** Of these user ids, those the connection provisioned (a Group's members must be among them). */
export const provisionedAmong = async (db: Db, connectionId: string, userIds: readonly string[]) =>
  userIds.length === 0
    ? []
    : (
        await db
          .selectFrom('scim_users')
          .select('user_id')
          .where('connection_id', '=', connectionId)
          .where('user_id', 'in', [...userIds])
          .execute()
      ).map((row) => row.user_id)
