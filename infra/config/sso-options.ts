/// `sso` in tessera.config.json, with `@better-auth/sso`'s option names:
///   {"sso": {"providersLimit": 10, "trustEmailVerified": false, "disableImplicitSignUp": false,
///            "defaultOverrideUserInfo": false,
///            "domainVerification": {"enabled": false, "tokenPrefix": "better-auth-token"},
///            "organizationProvisioning": {"disabled": false, "defaultRole": "member"}}}
/// Tessera's one addition: `domainVerification.dnsServers`, the resolvers (`host` or `host:port`)
/// the TXT record is looked up with; the system's when left out.

import type { Section } from './config-section.js'

export type SsoOptions = {
  /** Providers one user may register; 0 disables registration. */
  providersLimit: number
  trustEmailVerified: boolean
  disableImplicitSignUp: boolean
  defaultOverrideUserInfo: boolean
  domainVerification: { enabled: boolean; tokenPrefix: string; dnsServers: string[] }
  organizationProvisioning: { disabled: boolean; defaultRole: 'member' | 'admin' }
}

const TOKEN_PREFIX = /^[a-z0-9][a-z0-9-]{0,40}$/

export const parseSsoOptions = (section: Section): SsoOptions => {
  const verification = section.section('domainVerification')
  const tokenPrefix = verification.text('tokenPrefix', 'better-auth-token')
  if (!TOKEN_PREFIX.test(tokenPrefix))
    throw section.error('sso.domainVerification.tokenPrefix', 'must be lowercase letters, digits and -')
  const provisioning = section.section('organizationProvisioning')
  const options: SsoOptions = {
    providersLimit: section.integer('providersLimit', 10, 0),
    trustEmailVerified: section.boolean('trustEmailVerified', false),
    disableImplicitSignUp: section.boolean('disableImplicitSignUp', false),
    defaultOverrideUserInfo: section.boolean('defaultOverrideUserInfo', false),
    domainVerification: {
      enabled: verification.boolean('enabled', false),
      tokenPrefix,
      dnsServers: verification.textList('dnsServers', []),
    },
    organizationProvisioning: {
      disabled: provisioning.boolean('disabled', false),
      defaultRole: provisioning.oneOf('defaultRole', ['member', 'admin'], 'member'),
    },
  }
  verification.rejectUnread()
  provisioning.rejectUnread()
  return section.done(options)
}
