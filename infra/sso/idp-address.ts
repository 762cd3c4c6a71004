/// Which identity provider addresses Tessera may call. As `@better-auth/sso` does, an IdP on a
/// loopback, private, link-local or otherwise internal address is reached only when its origin is
/// one of TRUSTED_ORIGINS: a tenant admin must not turn Tessera into a probe of the operator's own
/// network (SSRF). Plain http is accepted only on such a trusted origin.

import ipaddr from 'ipaddr.js'
import { isTrustedOrigin } from '../http/trusted-url.js'

const INTERNAL_RANGES = new Set([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'private',
  'reserved',
  'carrierGradeNat',
  'uniqueLocal',
  'ipv4Mapped',
])

const isInternalHost = (hostname: string): boolean => {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) return true
  if (!ipaddr.isValid(host)) return false
  return INTERNAL_RANGES.has(ipaddr.parse(host).range())
}

/** True when Tessera may send a request to `address` (an issuer, endpoint or JWKS URL). */
export const isReachableIdpUrl = (address: string, trustedOrigins: readonly string[]): boolean => {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false
  if (url.username || url.password) return false
  const trusted = isTrustedOrigin(url.origin, trustedOrigins)
  if (url.protocol === 'http:' && !trusted) return false
  return !isInternalHost(url.hostname) || trusted
}
