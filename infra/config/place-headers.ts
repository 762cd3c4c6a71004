/// PLACE_COUNTRY_HEADER and PLACE_CITY_HEADER: the request headers in which the operator's proxy or
/// CDN passes on where it placed the client's address (its GeoIP), for example Cloudflare's
/// `CF-IPCountry`, Vercel's `X-Vercel-IP-Country` and `X-Vercel-IP-City`, CloudFront's
/// `CloudFront-Viewer-Country` and `CloudFront-Viewer-City`. Tessera holds no GeoIP database; it
/// records the place only from headers the operator names, and only on requests whose address it
/// took from a trusted proxy (TRUST_PROXY): a header any client can send is not evidence.

import { ConfigError } from './config-error.js'
import type { EnvVariable } from './environment.js'

export type PlaceHeaders = {
  /** Lowercased header name carrying an ISO 3166-1 alpha-2 country code; null when not configured. */
  country: string | null
  /** Lowercased header name carrying the city's name; null when not configured. */
  city: string | null
}

// RFC 9110 `token`: the characters a header name may hold.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/

const headerName = (name: string, value: string | undefined): string | null => {
  if (value === undefined) return null
  if (!HEADER_NAME.test(value))
    throw new ConfigError(name, `${name} must be a header name such as CF-IPCountry (got "${value}")`)
  return value.toLowerCase()
}

export const parsePlaceHeaders = (
  get: (name: EnvVariable) => string | undefined,
  trustsAProxy: boolean,
  warnings: string[],
): PlaceHeaders => {
  const headers = {
    country: headerName('PLACE_COUNTRY_HEADER', get('PLACE_COUNTRY_HEADER')),
    city: headerName('PLACE_CITY_HEADER', get('PLACE_CITY_HEADER')),
  }
  if ((headers.country !== null || headers.city !== null) && !trustsAProxy)
    warnings.push(
      'PLACE_COUNTRY_HEADER/PLACE_CITY_HEADER are set but TRUST_PROXY is not: no request comes through a trusted proxy, so devices are never placed.',
    )
  return headers
}
