/// The base URL and the trusted origins: what counts as "us" for cookies, Origin checks, redirects
/// and mail links.

import { ConfigError } from './config-error.js'

const HTTP_PROTOCOLS = new Set(['http:', 'https:'])
// A stand-in label that lets the URL parser check a wildcard pattern's host.
const WILDCARD_PROBE = 'tessera-wildcard-probe'

/** `BASE_URL` as an absolute http(s) URL without a trailing slash. */
export const parseBaseUrl = (value: string): { baseUrl: string; origin: string; secure: boolean } => {
  const url = parseUrl(value)
  const reason = !url
    ? 'must be an absolute URL'
    : !HTTP_PROTOCOLS.has(url.protocol)
      ? 'must use http or https'
      : url.username || url.password || url.search || url.hash
        ? 'must not contain credentials, a query or a fragment'
        : undefined
  if (!url || reason) {
    // A URL with credentials in it is not repeated into the logs.
    const got = value.includes('@') ? '' : ` (got "${value}")`
    throw new ConfigError('BASE_URL', `BASE_URL ${reason}${got}`)
  }
  return { baseUrl: url.href.replace(/\/+$/, ''), origin: url.origin, secure: url.protocol === 'https:' }
}

/**
 * `TRUSTED_ORIGINS`, comma separated: origins (`https://app.example.com:8443`) or wildcard
 * patterns (`https://*.example.com`). The base URL's origin always comes first.
 */
export const parseTrustedOrigins = (value: string | undefined, baseOrigin: string): string[] => {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  return [...new Set([baseOrigin, ...entries.map(parseTrustedOrigin)])]
}

const parseTrustedOrigin = (entry: string): string => {
  const isPattern = entry.includes('*')
  const url = parseUrl(isPattern ? entry.replaceAll('*', WILDCARD_PROBE) : entry)
  if (!url || !isBareOrigin(entry, url) || (isPattern && !wildcardsInHost(url))) {
    throw new ConfigError(
      'TRUSTED_ORIGINS',
      `TRUSTED_ORIGINS entry "${entry}" is not an http(s) origin (scheme://host[:port], no path) or a pattern such as https://*.example.com`,
    )
  }
  return isPattern ? url.origin.replaceAll(WILDCARD_PROBE, '*') : url.origin
}

// An origin has no credentials, path, query or fragment; a lone trailing slash is forgiven.
const isBareOrigin = (entry: string, url: URL): boolean =>
  HTTP_PROTOCOLS.has(url.protocol) &&
  !url.username &&
  !url.password &&
  url.pathname === '/' &&
  !url.search &&
  !url.hash &&
  !entry.includes('?') &&
  !entry.includes('#') &&
  /^https?:\/\/[^/]+\/?$/i.test(entry)

// `*` may only appear in the leftmost host label (`*.example.com`, `pr-*.example.com`): never in
// the scheme, the port or the registrable domain, and never as the whole host.
const wildcardsInHost = (url: URL): boolean => {
  const [first, ...rest] = url.hostname.split('.')
  return first !== undefined && rest.length > 0 && rest.every((label) => !label.includes(WILDCARD_PROBE))
}

const parseUrl = (value: string): URL | undefined => {
  try {
    return new URL(value)
  } catch {
    return undefined
  }
}
