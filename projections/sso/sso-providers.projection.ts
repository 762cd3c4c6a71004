/// Projects the SSO provider events into `sso_providers` and its domains into
/// `sso_provider_domains` (one row per domain, for the sign-in's lookup by domain).

import type { Transaction } from 'kysely'
import { parseDomains } from '../../domain/sso/sso-domains.js'
import type { SsoProviderEvent } from '../../domain/sso/sso-provider.js'
import type { Database } from '../database.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'

const json = (value: unknown): string | null => (value == null ? null : JSON.stringify(value))
const list = (text: string | undefined): string[] => (text ? (JSON.parse(text) as string[]) : [])

const setDomains = async (trx: Transaction<Database>, providerId: string, domain: string) => {
  await trx.deleteFrom('sso_provider_domains').where('provider_id', '=', providerId).execute()
  const rows = parseDomains(domain).map((each) => ({ provider_id: providerId, domain: each }))
  if (rows.length > 0) await trx.insertInto('sso_provider_domains').values(rows).execute()
}

/** The provider's domain lists as they stand, for an event that changes one of them. */
const current = async (trx: Transaction<Database>, providerId: string) => {
  const row = await trx
    .selectFrom('sso_providers')
    .select(['domain', 'verified_domains', 'sso_required_domains'])
    .where('provider_id', '=', providerId)
    .executeTakeFirst()
  return {
    domains: parseDomains(row?.domain ?? ''),
    verified: list(row?.verified_domains),
    required: list(row?.sso_required_domains),
  }
}

const register = async (trx: Transaction<Database>, event: SsoProviderEvent, at: Date) => {
  if (event.type !== 'sso-provider.registered') return
  const { providerId, organizationId, userId, issuer, domain, oidcConfig, samlConfig } = event.data
  const row = {
    organization_id: organizationId,
    user_id: userId,
    issuer,
    domain: domain.toLowerCase(),
    domain_verified: false,
    sso_required: false,
    verified_domains: '[]',
    sso_required_domains: '[]',
    oidc_config: json(oidcConfig),
    saml_config: json(samlConfig),
    updated_at: at,
  }
  await trx
    .insertInto('sso_providers')
    .values({ provider_id: providerId, ...row, created_at: at })
    .onConflict((c) => c.column('provider_id').doUpdateSet(row))
    .execute()
  await setDomains(trx, providerId, domain)
}

const update = async (trx: Transaction<Database>, event: SsoProviderEvent, at: Date) => {
  if (event.type !== 'sso-provider.updated') return
  const { providerId, issuer, domain, oidcConfig, samlConfig, domainVerified } = event.data
  const verified = event.data.verifiedDomains ?? (domainVerified ? parseDomains(domain) : [])
  const required = (await current(trx, providerId)).required.filter((kept) => verified.includes(kept))
  await trx
    .updateTable('sso_providers')
    .where('provider_id', '=', providerId)
    .set({
      issuer,
      domain: domain.toLowerCase(),
      oidc_config: json(oidcConfig),
      saml_config: json(samlConfig),
      domain_verified: domainVerified,
      verified_domains: JSON.stringify(verified),
      sso_required_domains: JSON.stringify(required),
      sso_required: required.length > 0,
      updated_at: at,
    })
    .execute()
  await setDomains(trx, providerId, domain)
}

export const ssoProvidersProjection: Projection = {
  name: 'sso-providers',
  tables: ['sso_providers', 'sso_provider_domains'],
  handles: eventTypes('sso-provider.'),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    const event = recorded as unknown as SsoProviderEvent & typeof recorded
    const at = new Date(recorded.metadata.at)
    const { providerId } = event.data
    const table = () => trx.updateTable('sso_providers').where('provider_id', '=', providerId)
    switch (event.type) {
      case 'sso-provider.registered':
        return register(trx, event, at)
      case 'sso-provider.updated':
        return update(trx, event, at)
      case 'sso-provider.domain-verified': {
        const { domains, verified } = await current(trx, providerId)
        const next = [...new Set([...verified, ...parseDomains(event.data.domain)])]
        const all = domains.every((domain) => next.includes(domain))
        await table()
          .set({ verified_domains: JSON.stringify(next), domain_verified: all, updated_at: at })
          .execute()
        return
      }
      case 'sso-provider.sso-requirement-set': {
        const { required } = await current(trx, providerId)
        const named = parseDomains(event.data.domain)
        const next = event.data.required
          ? [...new Set([...required, ...named])]
          : required.filter((domain) => !named.includes(domain))
        await table()
          .set({ sso_required_domains: JSON.stringify(next), sso_required: next.length > 0, updated_at: at })
          .execute()
        return
      }
      case 'sso-provider.deleted':
        await trx.deleteFrom('sso_providers').where('provider_id', '=', providerId).execute()
        await trx.deleteFrom('sso_provider_domains').where('provider_id', '=', providerId).execute()
        return
      default:
        return
    }
  },
}
