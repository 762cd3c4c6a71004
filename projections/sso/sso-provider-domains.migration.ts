/// Providers with several domains: the domain list is kept apart from the wire's comma-separated
/// `domain`, one row per domain in `sso_provider_domains` (a sign-in looks a domain up there), and
/// which of them are verified and required as JSON arrays on the provider's row. Existing rows
/// (one domain each) are carried over, so sign-in keeps routing without a replay.

import { type Kysely, sql } from 'kysely'

export type SsoProviderDomainsTable = {
  provider_id: string
  /** One domain, lowercase. */
  domain: string
}

export const ssoProviderDomainsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .alterTable('sso_providers')
      .addColumn('verified_domains', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute()
    await db.schema
      .alterTable('sso_providers')
      .addColumn('sso_required_domains', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute()
    await sql`update sso_providers set verified_domains = json_build_array(domain)::text where domain_verified`.execute(
      db,
    )
    await sql`update sso_providers set sso_required_domains = json_build_array(domain)::text where sso_required`.execute(
      db,
    )
    await db.schema
      .createTable('sso_provider_domains')
      .addColumn('provider_id', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('sso_provider_domains_pk', ['provider_id', 'domain'])
      .execute()
    await db.schema
      .createIndex('sso_provider_domains_domain')
      .on('sso_provider_domains')
      .column('domain')
      .execute()
    await sql`insert into sso_provider_domains (provider_id, domain) select provider_id, domain from sso_providers`.execute(
      db,
    )
  },
}
