/// The TXT lookup domain verification uses: `node:dns`'s Resolver, pointed at the configured
/// servers (`sso.domainVerification.dnsServers`) or the system's. A port so tests can run their own
/// DNS server on loopback, and so a failure reads as "no record" rather than an exception.

import { Resolver } from 'node:dns/promises'

/** The TXT records at `name`, each joined into one text; empty when there are none or DNS failed. */
export type TxtLookup = (name: string) => Promise<string[]>

export const dnsTxtLookup = (servers: readonly string[]): TxtLookup => {
  const resolver = new Resolver({ timeout: 3000, tries: 2 })
  if (servers.length > 0) resolver.setServers([...servers])
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))
    } catch {
      return []
    }
  }
}
