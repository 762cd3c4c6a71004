/// Single sign-on providers as the sign-in routes look them up (by id, by organization, by email
/// domain) and the provider routes list them. No secret lives here: the client secret and private
/// keys stay sealed in the provider's stream and are read from it when a sign-in needs them.

import type { Generated, Kysely, Selectable } from 'kysely'

export type SsoProvidersTable = {
  provider_id: string
  organization_id: string
  user_id: string | null
  issuer: string
  /** Lowercase, as an email's domain is compared; comma-separated when the provider has several. */
  domain: string
  /** Every domain verified (the plugin's `domainVerified`). */
  domain_verified: boolean
  /** Some domain requires SSO. */
  sso_required: boolean
  /** JSON arrays of domains (sso-provider-domains.migration.ts). */
  verified_domains: Generated<string>
  sso_required_domains: Generated<string>
  /** JSON of the stored settings (domain/sso/sso-settings.ts), null for the other protocol. */
  oidc_config: string | null
  saml_config: string | null
  created_at: Date
  updated_at: Date
}

export type SsoProviderRow = Selectable<SsoProvidersTable>

export const ssoProvidersMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('sso_providers')
      .addColumn('provider_id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('domain_verified', 'boolean', (c) => c.notNull())
      .addColumn('sso_required', 'boolean', (c) => c.notNull())
      .addColumn('oidc_config', 'text')
      .addColumn('saml_config', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('sso_providers_domain').on('sso_providers').column('domain').execute()
    await db.schema
      .createIndex('sso_providers_organization')
      .on('sso_providers')
      .columns(['organization_id', 'provider_id'])
      .execute()
  },
}
