/// Client authentication at the token, revocation and introspection endpoints (RFC 6749 2.3.1):
/// `client_secret_basic` (the Authorization header), `client_secret_post` (the form), and `none`
/// for public clients (only `client_id`). An unknown client, a wrong secret and a method the client
/// did not register all answer `invalid_client` alike; the secret's hash is compared in constant
/// time, and an unknown client is hashed all the same. The client comes from the in-process cache
/// where there is one (provider-cache.ts): a rotation or deletion evicts it before it is answered.

import { timingSafeEqual } from 'node:crypto'
import { oauthError } from '../../domain/oauth-provider/oauth-errors.js'
import type { StoredClient } from '../../http/ports/oauth-client-lookup.js'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import type { OAuthContext } from './oauth-context.js'
import { clientById } from './provider-cache.js'

export type PresentedCredentials = {
  authorization: string | undefined
  clientId: string | undefined
  clientSecret: string | undefined
}

type Presented = {
  clientId: string
  secret: string | null
  method: 'client_secret_basic' | 'client_secret_post' | 'none'
}

const fromBasic = (header: string): Presented | null => {
  const [scheme, value] = header.split(' ')
  if (scheme?.toLowerCase() !== 'basic' || !value) return null
  const decoded = Buffer.from(value, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 1) return null
  // RFC 6749 2.3.1: both halves are form-urlencoded before they are joined.
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replaceAll('+', ' '))
    } catch {
      return null
    }
  }
  const clientId = decode(decoded.slice(0, colon))
  const secret = decode(decoded.slice(colon + 1))
  return clientId && secret !== null ? { clientId, secret, method: 'client_secret_basic' } : null
}

const presentedOf = (credentials: PresentedCredentials): Presented => {
  const { authorization, clientId, clientSecret } = credentials
  if (authorization?.toLowerCase().startsWith('basic ')) {
    const basic = fromBasic(authorization)
    if (!basic) throw oauthError('invalid_client', 'invalid authorization header format')
    if (clientId !== undefined && clientId !== basic.clientId)
      throw oauthError('invalid_client', 'client_id does not match the authorization header')
    return basic
  }
  if (!clientId) throw oauthError('invalid_client', 'missing client credentials')
  return clientSecret !== undefined
    ? { clientId, secret: clientSecret, method: 'client_secret_post' }
    : { clientId, secret: null, method: 'none' }
}

// A hash no secret has: unknown clients are compared against it so their answer takes as long.
const NO_CLIENT_HASH = sha256Hex('no such client')

const sameSecret = (presented: string, storedHash: string | null): boolean => {
  const a = Buffer.from(sha256Hex(presented))
  const b = Buffer.from(storedHash ?? NO_CLIENT_HASH)
  return timingSafeEqual(a, b) && storedHash !== null
}

export const authenticateClient = async (
  ctx: OAuthContext,
  credentials: PresentedCredentials,
): Promise<StoredClient> => {
  const presented = presentedOf(credentials)
  const client = await clientById(ctx, presented.clientId)
  // Hashed whether or not the client exists, so the answer's time does not tell.
  const good = presented.secret !== null && sameSecret(presented.secret, client?.secretHash ?? null)
  const isPublic = client?.settings.tokenEndpointAuthMethod === 'none'
  if (!client || (presented.secret === null ? !isPublic : !good))
    throw oauthError('invalid_client', 'invalid client credentials')
  if (client.settings.disabled) throw oauthError('invalid_client', 'client is disabled')
  // A confidential client that registered for one method may still use the other secret method;
  // a public client never presents a secret.
  if (client.settings.tokenEndpointAuthMethod === 'none' && presented.method !== 'none')
    throw oauthError('invalid_client', 'public clients do not use a secret')
  return client
}
