/// The authorization request as it travels to the login and consent pages and back (`oauth_query`),
/// signed as better-auth's oauth-provider signs it, so its client (`oauthProviderClient`) and
/// pages written for it work unchanged: the parameters with `exp`, `ba_iat` (ms) and the sorted
/// list of signed names (`ba_param`), canonically sorted, HMAC-SHA256 under the secret, base64, `sig`.

import { createHmac, timingSafeEqual } from 'node:crypto'

const ISSUED_AT = 'ba_iat'
const NAMES = 'ba_param'
const POST_LOGIN = 'ba_pl'

const canonical = (params: URLSearchParams): string => {
  const sorted = [...params.entries()].sort(([ka, va], [kb, vb]) =>
    ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0,
  )
  return new URLSearchParams(sorted).toString()
}

const signature = (params: URLSearchParams, secret: string): string =>
  createHmac('sha256', secret).update(canonical(params)).digest('base64')

/** The request's parameters, signed for `lifetimeSeconds`. */
export const signQuery = (
  query: URLSearchParams,
  secret: string,
  now: Date,
  lifetimeSeconds: number,
): string => {
  const params = new URLSearchParams(query)
  for (const name of ['sig', 'exp', ISSUED_AT, NAMES, POST_LOGIN]) params.delete(name)
  params.set('exp', String(Math.floor(now.getTime() / 1000) + lifetimeSeconds))
  params.set(ISSUED_AT, String(now.getTime()))
  const names = [...new Set([...params.keys(), NAMES])].sort()
  for (const name of names) params.append(NAMES, name)
  params.set('sig', signature(params, secret))
  return params.toString()
}

export type VerifiedQuery = { query: URLSearchParams; issuedAt: Date | null }

/**
 * The authorization request an `oauth_query` carries, when one of the accepted secrets signed it
 * and it has not expired; null otherwise. The signing parameters are taken off.
 */
export const verifyQuery = (
  oauthQuery: string,
  secrets: readonly string[],
  now: Date,
): VerifiedQuery | null => {
  const params = new URLSearchParams(oauthQuery)
  const sigs = params.getAll('sig')
  const exp = Number(params.get('exp'))
  if (sigs.length !== 1 || !Number.isFinite(exp) || exp * 1000 < now.getTime()) return null
  params.delete('sig')
  const presented = Buffer.from(sigs[0] as string)
  const good = secrets.some((secret) => {
    const expected = Buffer.from(signature(params, secret))
    return expected.length === presented.length && timingSafeEqual(expected, presented)
  })
  if (!good) return null
  const issuedAt = Number(params.get(ISSUED_AT))
  for (const name of ['exp', ISSUED_AT, NAMES, POST_LOGIN]) params.delete(name)
  return { query: params, issuedAt: Number.isFinite(issuedAt) && issuedAt > 0 ? new Date(issuedAt) : null }
}
