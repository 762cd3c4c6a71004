/// A provider's row as the sign-in rules (domain/sso/sso-sign-in-policy.ts) see it.

import { parseDomains } from '../../domain/sso/sso-domains.js'
import type { RoutableProvider } from '../../domain/sso/sso-sign-in-policy.js'
import type { SsoProviderRow } from '../../http/ports/sso-provider-lookup.js'

const list = (text: string): string[] => JSON.parse(text) as string[]

export const routableOf = (row: SsoProviderRow): RoutableProvider => ({
  providerId: row.provider_id,
  domains: parseDomains(row.domain),
  domainVerified: row.domain_verified,
  verifiedDomains: list(row.verified_domains),
  ssoRequiredDomains: list(row.sso_required_domains),
  protocols: { oidc: row.oidc_config !== null, saml: row.saml_config !== null },
})
