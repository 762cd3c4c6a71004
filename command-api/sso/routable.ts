/// A provider's row as the sign-in rules (domain/sso/sso-sign-in-policy.ts) see it.

import type { RoutableProvider } from '../../domain/sso/sso-sign-in-policy.js'
import type { SsoProviderRow } from '../../projections/sso/sso-providers.table.js'

export const routableOf = (row: SsoProviderRow): RoutableProvider => ({
  providerId: row.provider_id,
  domain: row.domain,
  domainVerified: row.domain_verified,
  ssoRequired: row.sso_required,
  protocols: { oidc: row.oidc_config !== null, saml: row.saml_config !== null },
})
