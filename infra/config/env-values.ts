/// The environment's single-valued settings, each parsed into its type or refused with a
/// `ConfigError` naming the variable. A secret-bearing value (a URL with a password) is described,
/// never echoed.

import { ConfigError } from './config-error.js'
import type { EnvVariable } from './environment.js'
import { LOG_LEVELS, type LogLevel } from './log-levels.js'

/** Reads one declared variable: undefined when unset or set to nothing. */
export type Get = (name: EnvVariable) => string | undefined

/** Fastify's `trustProxy`: false, a hop count, or addresses/CIDRs. */
export type TrustProxy = boolean | number | string[]

// Behind a load balancer every request comes from the balancer: without this, rate limits and the
// audit log would see one client. Only trust what the deployment names.
export const parseTrustProxy = (value: string | undefined): TrustProxy => {
  if (value === undefined || value === 'false') return false
  if (value === 'true') return true
  if (/^\d{1,2}$/.test(value)) return Number(value)
  const entries = value.split(',').map((entry) => entry.trim())
  const address = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/
  if (entries.every((entry) => address.test(entry))) return entries
  throw new ConfigError(
    'TRUST_PROXY',
    `TRUST_PROXY must be true, false, a hop count, or comma-separated addresses/CIDRs (got "${value}")`,
  )
}

export const parseCount = (name: EnvVariable, value: string): number => {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1)
    throw new ConfigError(name, `${name} must be a positive integer (got "${value}")`)
  return Number(value)
}

export const parsePercent = (name: EnvVariable, value: string): number => {
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 100)
    throw new ConfigError(name, `${name} must be a whole percent from 1 to 100 (got "${value}")`)
  return Number(value)
}

export const parsePort = (value: string): number => {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN
  if (!(port >= 0 && port <= 65_535)) {
    throw new ConfigError('PORT', `PORT must be an integer from 0 to 65535 (got "${value}")`)
  }
  return port
}

// URLs may carry passwords, so a bad one is described but never echoed.
export const urlWithScheme = (
  get: Get,
  name: EnvVariable,
  protocols: readonly string[],
): string | undefined => {
  const value = get(name)
  if (value === undefined) return undefined
  if (!URL.canParse(value) || !protocols.includes(new URL(value).protocol)) {
    const schemes = protocols.map((protocol) => `${protocol}//`).join(' or ')
    throw new ConfigError(name, `${name} must be a URL starting with ${schemes}`)
  }
  return value
}

export const parsePreparedStatements = (value: string): boolean => {
  const normalised = value.toLowerCase()
  if (normalised !== 'on' && normalised !== 'off')
    throw new ConfigError(
      'DATABASE_PREPARED_STATEMENTS',
      `DATABASE_PREPARED_STATEMENTS must be "on" or "off" (got "${value}")`,
    )
  return normalised === 'on'
}

export const parseRateLimitSwitch = (value: string | undefined, production: boolean): boolean => {
  if (value === undefined) return production
  const normalised = value.toLowerCase()
  if (normalised !== 'on' && normalised !== 'off') {
    throw new ConfigError('RATE_LIMIT', `RATE_LIMIT must be "on" or "off" (got "${value}")`)
  }
  return normalised === 'on'
}

export const parseLogLevel = (value: string): LogLevel => {
  const level = LOG_LEVELS.find((candidate) => candidate === value.toLowerCase())
  if (level === undefined) {
    throw new ConfigError('LOG_LEVEL', `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${value}")`)
  }
  return level
}
