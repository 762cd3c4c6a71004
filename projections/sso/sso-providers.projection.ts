/// Projects the SSO provider events into `sso_providers`.

import type { SsoProviderEvent } from '../../domain/sso/sso-provider.js'
import type { Projection } from '../projection.js'

const json = (value: unknown): string | null => (value == null ? null : JSON.stringify(value))

export const ssoProvidersProjection: Projection = {
  name: 'sso-providers',
  tables: ['sso_providers'],
  async apply(trx, recorded) {
    const event = recorded as unknown as SsoProviderEvent & typeof recorded
    const at = new Date(recorded.metadata.at)
    const table = () => trx.updateTable('sso_providers').where('provider_id', '=', event.data.providerId)
    switch (event.type) {
      case 'sso-provider.registered': {
        const { providerId, organizationId, userId, issuer, domain, oidcConfig, samlConfig } = event.data
        const row = {
          organization_id: organizationId,
          user_id: userId,
          issuer,
          domain: domain.toLowerCase(),
          domain_verified: false,
          sso_required: false,
          oidc_config: json(oidcConfig),
          saml_config: json(samlConfig),
          updated_at: at,
        }
        await trx
          .insertInto('sso_providers')
          .values({ provider_id: providerId, ...row, created_at: at })
          .onConflict((c) => c.column('provider_id').doUpdateSet(row))
          .execute()
        return
      }
      case 'sso-provider.updated': {
        const { issuer, domain, oidcConfig, samlConfig, domainVerified } = event.data
        await table()
          .set({
            issuer,
            domain: domain.toLowerCase(),
            oidc_config: json(oidcConfig),
            saml_config: json(samlConfig),
            domain_verified: domainVerified,
            ...(domainVerified ? {} : { sso_required: false }),
            updated_at: at,
          })
          .execute()
        return
      }
      case 'sso-provider.domain-verified':
        await table().set({ domain_verified: true, updated_at: at }).execute()
        return
      case 'sso-provider.sso-requirement-set':
        await table().set({ sso_required: event.data.required, updated_at: at }).execute()
        return
      case 'sso-provider.deleted':
        await trx.deleteFrom('sso_providers').where('provider_id', '=', event.data.providerId).execute()
        return
      default:
        return
    }
  },
}
