/// Standard Webhooks signing (standardwebhooks.com): `webhook-signature` holds `v1,<base64 of
/// HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64 key after the
/// `whsec_` prefix. During a secret rotation both secrets sign, space separated, so a receiver that
/// still holds the old one keeps verifying.

import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto'

const PREFIX = 'whsec_'

/** A new signing secret: 24 random bytes (192 bits), as Standard Webhooks' libraries make them. */
export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(24).toString('base64')}`

// Every delivery signs: an HMAC keyed with a KeyObject made once per secret costs about half of one
// keyed with the secret decoded afresh (the key is imported into OpenSSL once, not on every call).
const MAX_KEYS = 10_000
const keys = new Map<string, KeyObject>()

const keyOf = (secret: string): KeyObject => {
  let key = keys.get(secret)
  if (!key) {
    key = createSecretKey(
      Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64'),
    )
    if (keys.size >= MAX_KEYS) keys.clear()
    keys.set(secret, key)
  }
  return key
}

export const signatureHeader = (
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string =>
  secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`,
    )
    .join(' ')
