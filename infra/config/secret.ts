/// AUTH_SECRET signs cookies and derives encryption keys. A laptop may run on a public
/// development secret (loudly); production may not. AUTH_SECRET_PREVIOUS (comma-separated) names
/// the secrets a rotation replaced: still accepted to verify and unwrap, never used to sign or seal.

import { ConfigError } from './config-error.js'
import type { EnvVariable } from './environment.js'

/** Public by design: anything signed with it can be forged by anyone who reads this file. */
export const DEVELOPMENT_SECRET = 'tessera-development-secret-public-never-use-in-production'

const MIN_LENGTH = 32
const HOW_TO = 'generate one with `openssl rand -base64 32`'

export const parseSecret = (value: string | undefined, production: boolean, warnings: string[]): string => {
  if (value === undefined || value === DEVELOPMENT_SECRET) {
    if (production) {
      const problem = value === undefined ? 'is required' : 'must not be the public development secret'
      throw new ConfigError('AUTH_SECRET', `AUTH_SECRET ${problem} when NODE_ENV=production; ${HOW_TO}`)
    }
    warnings.push(
      'AUTH_SECRET is not set: using the PUBLIC development secret, so anyone can forge sessions. ' +
        `Never expose this server; ${HOW_TO}.`,
    )
    return DEVELOPMENT_SECRET
  }
  if (value.length < MIN_LENGTH) {
    if (production) {
      throw new ConfigError(
        'AUTH_SECRET',
        `AUTH_SECRET must be at least ${MIN_LENGTH} characters when NODE_ENV=production; ${HOW_TO}`,
      )
    }
    warnings.push(`AUTH_SECRET is shorter than ${MIN_LENGTH} characters; production would refuse it.`)
  }
  return value
}

/**
 * The secrets a rotation retired, newest first as listed. Each still verifies cookies, links and
 * tokens it signed and unwraps keys wrapped under it, until the operator removes it (after
 * `tessera rotate-secret` re-wrapped every key and the longest-lived cookie expired).
 */
export const parsePreviousSecrets = (
  value: string | undefined,
  current: string,
  production: boolean,
): string[] => {
  if (value === undefined) return []
  const secrets = value
    .split(',')
    .map((secret) => secret.trim())
    .filter((secret) => secret !== '')
  for (const secret of secrets) {
    // Anyone can sign with the public development secret: production must not accept it, even
    // retired. A short retired secret is accepted (refusing it would sign everybody out).
    if (production && secret === DEVELOPMENT_SECRET)
      throw new ConfigError(
        'AUTH_SECRET_PREVIOUS',
        'AUTH_SECRET_PREVIOUS must not hold the public development secret',
      )
  }
  // The current secret listed again adds nothing; a repeat would only cost time on every miss.
  return [...new Set(secrets)].filter((secret) => secret !== current)
}

/** Every secret that verifies or unwraps: the current one first, then the retired ones. */
export const acceptedSecrets = (config: { secret: string; previousSecrets: readonly string[] }): string[] => [
  config.secret,
  ...config.previousSecrets,
]

/** AUTH_SECRET and AUTH_SECRET_PREVIOUS, checked. */
export const parseSecrets = (
  get: (name: EnvVariable) => string | undefined,
  production: boolean,
  warnings: string[],
): { secret: string; previousSecrets: string[] } => {
  const secret = parseSecret(get('AUTH_SECRET'), production, warnings)
  return { secret, previousSecrets: parsePreviousSecrets(get('AUTH_SECRET_PREVIOUS'), secret, production) }
}
