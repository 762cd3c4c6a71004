/// AUTH_SECRET signs cookies and derives encryption keys. A laptop may run on a public
/// development secret (loudly); production may not.

import { ConfigError } from './config-error.js'

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
