/// What the SSO use cases (OIDC and SAML) read of the registered identity providers
/// (projections/sso), as a port on the command context (`CommandContext.lookups.ssoProviders`).
/// Each method is the repository function of the same name without its database, which the
/// composition root binds (app/server/command-lookups.ts).

import type { SsoProviderRow } from '../../projections/sso/sso-providers.table.js'
import type { Bound } from './bound.js'

export type { SsoProviderRow }

type Repository = typeof import('../../projections/sso/sso-providers.repository.js')

export type SsoProviderLookup = {
  findSsoProvider: Bound<Repository['findSsoProvider']>
  findSsoProviderOfOrganization: Bound<Repository['findSsoProviderOfOrganization']>
  findSsoProvidersForDomain: Bound<Repository['findSsoProvidersForDomain']>
  listSsoProvidersOfOrganizations: Bound<Repository['listSsoProvidersOfOrganizations']>
  countSsoProvidersOfUser: Bound<Repository['countSsoProvidersOfUser']>
}
