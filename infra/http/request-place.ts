/// Where a request's client is, as the operator's proxy or CDN placed its address in the headers
/// PLACE_COUNTRY_HEADER and PLACE_CITY_HEADER name (infra/config/place-headers.ts). Believed only
/// when Fastify took the client address from a trusted proxy (TRUST_PROXY): a request that came
/// straight from the client could set those headers to anything.

import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Place } from '../../domain/shared/metadata.js'
import type { PlaceHeaders } from '../config/place-headers.js'

const MAX_CITY_LENGTH = 100

// `fallback: 'none'` answers undefined for a code ICU does not know, which rejects made-up values.
// Made on first use: building it maps ICU's locale data, ~8 MB of resident memory that a server
// with no place header configured (the default) would carry for nothing.
let regions: Intl.DisplayNames | undefined
const regionNames = (): Intl.DisplayNames => {
  regions ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })
  return regions
}
/** User-assigned codes proxies use for "unknown" (Cloudflare sends XX; ZZ reads "Unknown Region"). */
const UNKNOWN_COUNTRIES = new Set(['XX', 'ZZ'])

const headerValue = (request: Pick<FastifyRequest, 'headers'>, name: string | null): string | null => {
  if (name === null) return null
  const value = request.headers[name]
  return typeof value === 'string' ? value.trim() : null
}

const countryCode = (value: string | null): string | null => {
  const code = value?.toUpperCase() ?? ''
  if (!/^[A-Z]{2}$/.test(code) || UNKNOWN_COUNTRIES.has(code)) return null
  return regionNames().of(code) === undefined ? null : code
}

/**
 * Node reads header bytes as Latin-1, so a city a proxy sent as UTF-8 ("Zürich") arrives as
 * "ZÃ¼rich"; Vercel percent-encodes it instead ("S%C3%A3o%20Paulo"). Both are read back here.
 */
const decodeCity = (raw: string): string => {
  if (/%[0-9A-Fa-f]{2}/.test(raw)) {
    try {
      return decodeURIComponent(raw)
    } catch {
      return raw
    }
  }
  // Characters beyond Latin-1 cannot be misread bytes: the value is already text.
  if (/[\u0100-\uffff]/.test(raw)) return raw
  const asUtf8 = Buffer.from(raw, 'latin1').toString('utf8')
  return asUtf8.includes('\uFFFD') ? raw : asUtf8
}

const cityName = (value: string | null): string | null => {
  if (!value) return null
  const city = decodeCity(value)
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_CITY_LENGTH)
  return city.length > 0 ? city : null
}

/** The request came through a proxy TRUST_PROXY trusts: Fastify took the client address from it. */
const cameThroughTrustedProxy = (request: Pick<FastifyRequest, 'ips'>): boolean =>
  (request.ips?.length ?? 0) > 1

export const placeOf = (
  request: Pick<FastifyRequest, 'ips' | 'headers'>,
  headers: PlaceHeaders,
): Place | null => {
  if (!cameThroughTrustedProxy(request)) return null
  const country = countryCode(headerValue(request, headers.country))
  const city = cityName(headerValue(request, headers.city))
  return country === null && city === null ? null : { country, city }
}

/**
 * `request.place`, read when a command asks for the request's origin (request-metadata.ts). Nothing
 * is decorated when no header is configured, and the origin then carries no place.
 */
export const registerRequestPlace = (app: FastifyInstance, headers: PlaceHeaders): void => {
  if (headers.country === null && headers.city === null) return
  app.decorateRequest('place', {
    getter(this: FastifyRequest) {
      return placeOf(this, headers)
    },
  })
}
