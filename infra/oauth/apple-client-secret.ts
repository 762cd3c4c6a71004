/// Apple's client secret is not a fixed text but a JWT the client signs with its Sign in with Apple
/// key (ES256; issuer the team, subject the client id, audience Apple, at most six months). Tessera
/// signs a fresh one for each token request, valid for five minutes, so no secret needs renewing.

import { importPKCS8, SignJWT } from 'jose'
import type * as client from 'openid-client'
import type { AppleKey } from '../config/social-providers.js'

const AUDIENCE = 'https://appleid.apple.com'
const LIFETIME_SECONDS = 5 * 60

export const signAppleClientSecret = async (
  key: AppleKey,
  clientId: string,
  now: Date = new Date(),
): Promise<string> => {
  const privateKey = await importPKCS8(key.privateKey, 'ES256')
  const issuedAt = Math.floor(now.getTime() / 1000)
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: key.keyId })
    .setIssuer(key.teamId)
    .setSubject(clientId)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + LIFETIME_SECONDS)
    .sign(privateKey)
}

/** Client authentication in the form body (as Apple takes it) with a secret signed for this request. */
export const appleClientAuth =
  (key: AppleKey, clientId: string): client.ClientAuth =>
  async (_server, _client, body) => {
    body.set('client_id', clientId)
    body.set('client_secret', await signAppleClientSecret(key, clientId))
  }
