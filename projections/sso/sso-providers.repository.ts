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

/** Providers with a domain that is the address's domain or one it sits under (`eu.acme.com` → `acme.com`). */
export const findSsoProvidersForDomain = async (
  db: Kysely<Database>,
  domain: string,
): Promise<SsoProviderRow[]> => {
  const labels = domain.toLowerCase().split('.')
  const candidates = labels.slice(0, -1).map((_, index) => labels.slice(index).join('.'))
  if (candidates.length === 0) return []
  const rows = await db
    .selectFrom('sso_provider_domains')
    .innerJoin('sso_providers', 'sso_providers.provider_id', 'sso_provider_domains.provider_id')
    .selectAll('sso_providers')
    .select('sso_provider_domains.domain as matched')
    .where('sso_provider_domains.domain', 'in', candidates)
    .orderBy('sso_providers.provider_id')
    .execute()
  // The most specific domain first; a provider once (by its most specific match).
  const seen = new Set<string>()
  return rows
    .sort((a, b) => b.matched.length - a.matched.length)
    .filter((row) => !seen.has(row.provider_id) && seen.add(row.provider_id))
    .map(({ matched: _matched, ...row }) => row)
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
