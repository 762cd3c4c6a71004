/// Where a webhook may be sent: public unicast addresses only, unless the operator allows a range
/// (`webhooks.allowAddresses` in tessera.config.json, e.g. `["127.0.0.0/8"]` for tests). Loopback,
/// private, link-local (which holds the clouds' metadata address 169.254.169.254), unique-local,
/// carrier-grade NAT, multicast, reserved and unspecified addresses are refused, IPv4-mapped IPv6
/// included. The name is resolved once per attempt and the connection is made to that address, so a
/// name that resolves to a public address for the check cannot point elsewhere for the connection.

import { lookup } from 'node:dns/promises'
import ipaddr from 'ipaddr.js'

export type AddressPolicy = { allow: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][] }

export const addressPolicy = (allowAddresses: readonly string[]): AddressPolicy => ({
  allow: allowAddresses.map((range) => ipaddr.parseCIDR(range)),
})

/** Whether `address` (an IP literal) may receive webhooks. */
export const isAllowedAddress = (policy: AddressPolicy, address: string): boolean => {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.process(address)
  if (parsed.range() === 'unicast') return true
  return policy.allow.some(
    ([network, bits]) => network.kind() === parsed.kind() && parsed.match([network, bits] as never),
  )
}

export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError'
}

const bare = (hostname: string): string =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname

/** The one address an attempt connects to, resolved now; throws when it may not be used. */
export const resolveTarget = async (
  policy: AddressPolicy,
  url: URL,
): Promise<{ address: string; family: 4 | 6 }> => {
  const host = bare(url.hostname)
  const resolved = ipaddr.isValid(host)
    ? { address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }
    : await lookup(host, { verbatim: true })
  if (!isAllowedAddress(policy, resolved.address))
    throw new AddressRefusedError(`${resolved.address} is not an address webhooks may be sent to`)
  return { address: resolved.address, family: resolved.family === 6 ? 6 : 4 }
}

/**
 * For a new or changed URL: false when its host is an address literal (or `localhost`) that may
 * not be used. Names are judged at delivery, where they are resolved.
 */
export const literalAddressAllowed = (policy: AddressPolicy, url: string): boolean => {
  let host: string
  try {
    host = bare(new URL(url).hostname)
  } catch {
    return true // the decider refuses a malformed URL with its own code
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return isAllowedAddress(policy, '127.0.0.1')
  return ipaddr.isValid(host) ? isAllowedAddress(policy, host) : true
}
