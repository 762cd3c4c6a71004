/// `sso` in tessera.config.json, with `@better-auth/sso`'s option names:
///   {"sso": {"providersLimit": 10, "trustEmailVerified": false, "disableImplicitSignUp": false,
///            "defaultOverrideUserInfo": false,
///            "domainVerification": {"enabled": false, "tokenPrefix": "better-auth-token"},
///            "organizationProvisioning": {"disabled": false, "defaultRole": "member"},
///            "saml": {"clockSkew": 60000, "maxResponseSize": 262144, "maxMetadataSize": 102400}}}
/// `saml.clockSkew` is in milliseconds as the plugin's, but 60 s by default where the plugin allows 5 min.
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
  saml: { clockSkew: number; maxResponseSize: number; maxMetadataSize: number }
}

const TOKEN_PREFIX = /^[a-z0-9][a-z0-9-]{0,40}$/

export const parseSsoOptions = (section: Section): SsoOptions => {
  const verification = section.section('domainVerification')
  const tokenPrefix = verification.text('tokenPrefix', 'better-auth-token')
  if (!TOKEN_PREFIX.test(tokenPrefix))
    throw section.error('sso.domainVerification.tokenPrefix', 'must be lowercase letters, digits and -')
  const provisioning = section.section('organizationProvisioning')
  const saml = section.section('saml')
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
    saml: {
      clockSkew: saml.integer('clockSkew', 60_000, 0),
      maxResponseSize: saml.integer('maxResponseSize', 256 * 1024, 1),
      maxMetadataSize: saml.integer('maxMetadataSize', 100 * 1024, 1),
    },
  }
  verification.rejectUnread()
  provisioning.rejectUnread()
  saml.rejectUnread()
  return section.done(options)
}
