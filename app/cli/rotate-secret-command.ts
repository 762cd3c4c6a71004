/// `tessera rotate-secret`: after AUTH_SECRET was changed (the old value moved to
/// AUTH_SECRET_PREVIOUS), puts everything that is stored wrapped under the current secret, so the
/// old one can be removed: every data key (and the unique-claim key) is re-wrapped, and a JWT
/// signing key sealed under a retired secret is replaced by one sealed under the current secret
/// (the old one stays published until the tokens it signed have expired). Running it twice is
/// harmless. It exits with 1 while something remains that no configured secret opens.

import { randomUUID } from 'node:crypto'
import pino from 'pino'
import { rotateSigningKey } from '../../command-api/jwt/signing-keys.js'
import { type Config, ConfigError, loadConfig } from '../../infra/config/config.js'
import { FieldDecryptionError } from '../../infra/crypto/data-keys.js'
import { openPrivateKey } from '../../infra/crypto/jwt/sealed-key.js'
import { listSigningKeys } from '../../projections/jwks/jwks.repository.js'
import { createTessera, type Tessera } from '../server/tessera.js'

export const ROTATE_SECRET_USAGE = 'Usage: tessera rotate-secret'

export const rotateSecretCommand = async (args: readonly string[]): Promise<void> => {
  if (args.length > 0) throw new ConfigError('rotate-secret', ROTATE_SECRET_USAGE)
  const config = loadConfig()
  const tessera = await createTessera({ config, logger: pino({ level: 'warn' }), role: 'projector' })
  try {
    const keys = await tessera.keyring.rewrapAll()
    console.log(
      `Data keys: ${keys.rewrapped} re-wrapped under the current AUTH_SECRET, ${keys.current} already under it.`,
    )
    const signingKey = await replaceSigningKeySealedUnderRetiredSecret(tessera, config)
    if (signingKey) console.log(signingKey)
    if (keys.unreadable.length > 0) {
      console.error(
        `${keys.unreadable.length} data keys open under no configured secret (wrapped under a secret no longer in ` +
          'AUTH_SECRET or AUTH_SECRET_PREVIOUS); their personal data cannot be read. Subjects: ' +
          keys.unreadable.join(', '),
      )
      process.exitCode = 1
      return
    }
    console.log(
      'Nothing stored needs a retired secret any more. Remove it from AUTH_SECRET_PREVIOUS once the cookies and ' +
        `links it signed have expired (sessions: ${config.session.expiresIn} s; verification links: ` +
        `${config.emailVerification.expiresIn} s); until then it keeps them working.`,
    )
  } finally {
    await tessera.close()
  }
}

/** A non-retired signing key that opens only under a retired secret is retired in favour of a new one. */
const replaceSigningKeySealedUnderRetiredSecret = async (
  tessera: Tessera,
  config: Config,
): Promise<string | null> => {
  if (!config.jwt.enabled) return null
  const rows = await listSigningKeys(tessera.ctx.db)
  const stale = rows.some(
    (row) => row.retired_at === null && !opensUnder(row.private_key, config.secret, row.kid),
  )
  if (!stale) return null
  const origin = { requestId: randomUUID(), ip: null, userAgent: 'tessera-cli' }
  const { kid, retired } = await rotateSigningKey(tessera.ctx, origin)
  tessera.ctx.readYourWrites.settle(origin.requestId)
  return `JWT signing key ${kid} now signs, sealed under the current AUTH_SECRET${retired ? ` (retired ${retired})` : ''}.`
}

const opensUnder = (sealed: string, secret: string, kid: string): boolean => {
  try {
    openPrivateKey(sealed, secret, kid)
    return true
  } catch (error) {
    if (error instanceof FieldDecryptionError) return false
    throw error
  }
}
