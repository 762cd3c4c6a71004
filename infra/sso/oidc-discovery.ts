/// OpenID Connect discovery for an SSO provider's registration: the issuer's
/// `/.well-known/openid-configuration` (or the discovery endpoint given), checked as the plugin
/// checks it (required fields, the issuer it names, every endpoint reachable under the address
/// rule), and the endpoints the registration did not give filled in from it.

import { isReachableIdpUrl } from './idp-address.js'

export type DiscoveredEndpoints = {
  discoveryEndpoint: string
  authorizationEndpoint: string
  tokenEndpoint: string
  jwksEndpoint: string
  userInfoEndpoint: string | null
}

export class DiscoveryError extends Error {
  override readonly name = 'DiscoveryError'
}

const TIMEOUT_MS = 10_000
const bare = (issuer: string) => issuer.replace(/\/+$/, '')

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

export const discoverOidc = async (
  issuer: string,
  given: Partial<DiscoveredEndpoints>,
  trustedOrigins: readonly string[],
): Promise<DiscoveredEndpoints> => {
  const discoveryEndpoint = given.discoveryEndpoint ?? `${bare(issuer)}/.well-known/openid-configuration`
  if (!isReachableIdpUrl(discoveryEndpoint, trustedOrigins))
    throw new DiscoveryError(`The discovery endpoint ${discoveryEndpoint} is not allowed`)
  let document: Record<string, unknown>
  try {
    const response = await fetch(discoveryEndpoint, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    if (!response.ok) throw new DiscoveryError(`Discovery answered ${response.status}`)
    document = (await response.json()) as Record<string, unknown>
  } catch (error) {
    if (error instanceof DiscoveryError) throw error
    throw new DiscoveryError('The discovery document could not be fetched')
  }
  const named = text(document.issuer)
  if (!named || bare(named) !== bare(issuer))
    throw new DiscoveryError('The discovery document names another issuer')
  const endpoints = {
    discoveryEndpoint,
    authorizationEndpoint: given.authorizationEndpoint ?? text(document.authorization_endpoint),
    tokenEndpoint: given.tokenEndpoint ?? text(document.token_endpoint),
    jwksEndpoint: given.jwksEndpoint ?? text(document.jwks_uri),
    userInfoEndpoint: given.userInfoEndpoint ?? text(document.userinfo_endpoint),
  }
  const { authorizationEndpoint, tokenEndpoint, jwksEndpoint } = endpoints
  if (!authorizationEndpoint || !tokenEndpoint || !jwksEndpoint)
    throw new DiscoveryError('The discovery document lacks a required endpoint')
  for (const url of [authorizationEndpoint, tokenEndpoint, jwksEndpoint, endpoints.userInfoEndpoint])
    if (url && !isReachableIdpUrl(url, trustedOrigins))
      throw new DiscoveryError(`The endpoint ${url} is not allowed`)
  return { ...endpoints, authorizationEndpoint, tokenEndpoint, jwksEndpoint }
}
