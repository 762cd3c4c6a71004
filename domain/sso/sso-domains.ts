/// A provider's email domains, as `@better-auth/sso` keeps them: one comma-separated `domain` on
/// the wire (`acme.com,acme.de`), each entry matching itself and its subdomains (`eu.acme.com`).

/** The distinct domains of a comma-separated list, lowercased and trimmed, in their first order. */
export const parseDomains = (list: string): string[] => [
  ...new Set(
    list
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== ''),
  ),
]

/** The list as the wire and the events carry it. */
export const joinDomains = (domains: readonly string[]): string => domains.join(',')

/** The provider's domain that `host` is or sits under, the most specific one; null for none. */
export const matchingDomain = (host: string, domains: readonly string[]): string | null => {
  const search = host.trim().toLowerCase()
  const matches = domains.filter((domain) => search === domain || search.endsWith(`.${domain}`))
  return matches.sort((a, b) => b.length - a.length)[0] ?? null
}

/** The host part of an address, lowercased; empty when it has none. */
export const hostOf = (email: string): string => {
  const at = email.lastIndexOf('@')
  return at < 0 ? '' : email.slice(at + 1).toLowerCase()
}
