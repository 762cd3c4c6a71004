/// Lookups of `sso_providers` for the sign-in and provider routes.

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'
import type { SsoProviderRow } from './sso-providers.table.js'

export const findSsoProvider = async (
  db: Kysely<Database>,
  providerId: string,
): Promise<SsoProviderRow | null> =>
  (await db
    .selectFrom('sso_providers')
    .selectAll()
    .where('provider_id', '=', providerId)
    .executeTakeFirst()) ?? null

/** The organization's first provider (by id, so the choice is stable), as the plugin takes one. */
export const findSsoProviderOfOrganization = async (
  db: Kysely<Database>,
  organizationId: string,
): Promise<SsoProviderRow | null> =>
  (await db
    .selectFrom('sso_providers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('provider_id')
    .executeTakeFirst()) ?? null

/** Providers whose domain is the address's domain or one it sits under (`eu.acme.com` → `acme.com`). */
export const findSsoProvidersForDomain = async (
  db: Kysely<Database>,
  domain: string,
): Promise<SsoProviderRow[]> => {
  const labels = domain.toLowerCase().split('.')
  const candidates = labels.slice(0, -1).map((_, index) => labels.slice(index).join('.'))
  if (candidates.length === 0) return []
  const rows = await db
    .selectFrom('sso_providers')
    .selectAll()
    .where('domain', 'in', candidates)
    .orderBy('provider_id')
    .execute()
  // The most specific domain first.
  return rows.sort((a, b) => b.domain.length - a.domain.length)
}

export const listSsoProvidersOfOrganizations = async (
  db: Kysely<Database>,
  organizationIds: readonly string[],
): Promise<SsoProviderRow[]> =>
  organizationIds.length === 0
    ? []
    : db
        .selectFrom('sso_providers')
        .selectAll()
        .where('organization_id', 'in', [...organizationIds])
        .orderBy('provider_id')
        .execute()

export const countSsoProvidersOfUser = async (db: Kysely<Database>, userId: string): Promise<number> => {
  const row = await db
    .selectFrom('sso_providers')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Number(row?.count ?? 0)
}
