/// What the operator console shows of one person beside their profile: the ways they sign in (the
/// credential account and every linked provider, from the `accounts` read model) and the
/// organizations they belong to with their role in each. Never a token: those stay sealed in the log.

import type { Kysely } from 'kysely'
import type { Database } from '../../projections/database.js'
import { listAccountsOf } from '../social/linked-accounts.repository.js'

export type UserOverview = {
  accounts: { id: string; providerId: string; accountId: string; createdAt: string }[]
  organizations: { id: string; name: string; slug: string; role: string }[]
}

export const userOverview = async (db: Kysely<Database>, userId: string): Promise<UserOverview> => {
  const [accounts, memberships] = await Promise.all([
    listAccountsOf(db, userId),
    db
      .selectFrom('organization_members')
      .innerJoin('organizations', 'organizations.id', 'organization_members.organization_id')
      .select(['organizations.id', 'organizations.name', 'organizations.slug', 'organization_members.role'])
      .where('organization_members.user_id', '=', userId)
      .orderBy('organizations.name')
      .execute(),
  ])
  return {
    accounts: accounts.map((row) => ({
      id: row.id,
      providerId: row.provider_id,
      accountId: row.account_id,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    organizations: memberships.map(({ id, name, slug, role }) => ({ id, name, slug, role })),
  }
}
