/// Tessera's configuration: environment variables (a `.env` file in the working directory fills in
/// what the real environment does not set) and the optional `tessera.config.json`, checked once
/// at start into one typed, frozen object. Every value has a default that works on a laptop.

import { resolve } from 'node:path'
import { ConfigError } from './config-error.js'
import { type FeatureOptions, loadFeatureOptions } from './config-file.js'
import { readDotenv } from './dotenv.js'
import { type DefaultedVariable, type EnvVariable, fallbackOf } from './environment.js'
import { parseBaseUrl, parseTrustedOrigins } from './origins.js'
import { type PlaceHeaders, parsePlaceHeaders } from './place-headers.js'
import { resolveScimOptions, type ScimSettings } from './scim-options.js'
import { parseSecrets } from './secret.js'
import { resolveSocialProviders, type SocialProviderSettings } from './social-providers.js'

export { ConfigError } from './config-error.js'
export type { FeatureOptions } from './config-file.js'
export { acceptedSecrets, DEVELOPMENT_SECRET } from './secret.js'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

type DeepReadonly<T> = T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T

type ConfigShape = Omit<FeatureOptions, 'rateLimit' | 'socialProviders' | 'scim'> & {
  /** SCIM connections declared in the config file, tokens kept as hashes. */
  scim: ScimSettings
  /** Providers offered for social sign-in (those with a client id and secret), by id. */
  socialProviders: Record<string, SocialProviderSettings>
  production: boolean
  port: number
  host: string
  /** Absolute http(s) URL, no trailing slash. Mail links are built from it, never from headers. */
  baseUrl: string
  baseOrigin: string
  basePath: '/api/auth'
  secureCookies: boolean
  secret: string
  /** AUTH_SECRET_PREVIOUS: retired secrets, still accepted to verify and unwrap (never to sign). */
  previousSecrets: string[]
  dataDir: string
  /** `preparedStatements`: DATABASE_PREPARED_STATEMENTS (on unless "off"; infra/db/pg-prepared.ts). */
  database:
    | { kind: 'postgres'; url: string; preparedStatements: boolean }
    | { kind: 'pglite'; dataDir: string }
  /** Where the log lives: the SQL tables of `database`, or KurrentDB (EVENT_STORE=kurrentdb, KURRENTDB_URL). */
  eventStore: { kind: 'sql' } | { kind: 'kurrentdb'; url: string }
  redisUrl: string | undefined
  /** Shaped like `MailSettings` of infra/mail: no SMTP or HTTP provider means mails go to the log. */
  mail: {
    mailFrom: string
    smtpUrl: string | undefined
    httpUrl: string | undefined
    httpApiKey: string | undefined
  }
  /** Origins and `https://*.example.com` patterns; the base URL's origin first. */
  trustedOrigins: string[]
  rateLimit: { enabled: boolean; window: number; max: number }
  /**
   * Which proxies to believe about the client address (X-Forwarded-For), as Fastify's `trustProxy`:
   * false (the socket address is the client), a hop count, or a list of addresses/CIDRs.
   */
  trustProxy: boolean | number | string[]
  /** Headers in which a trusted proxy says where it placed the client (place-headers.ts). */
  placeHeaders: PlaceHeaders
  logLevel: LogLevel
  /** Read-your-writes and the projector's failure handling (docs/architecture.md, "Consistency"). */
  consistency: {
    /** How long a request waits for the read models to show its commands before answering 503. */
    readYourWritesMs: number
    /** Attempts at one event before the projector halts on it. */
    projectorMaxAttempts: number
    /** `GET /ready` turns 503 when the oldest unapplied event is older than this. */
    readyMaxLagSeconds: number
  }
  /**
   * The application backends allowed to call the server API (`x-tessera-server-key`), from
   * `SERVER_KEYS` (`name=key,…`); none configured means the server API refuses every call.
   */
  serverKeys: { name: string; key: string }[]
  /**
   * `ADMIN_EMAILS` (comma-separated, normalised): accounts with these addresses get the admin role
   * once the address is verified, once per account.
   */
  adminEmails: string[]
  /** Things an operator should read at start (e.g. the development secret is in use). */
  warnings: string[]
}

export type Config = DeepReadonly<ConfigShape>

export type Env = Record<string, string | undefined>

export type LoadConfigOptions = { cwd?: string }

export const loadConfig = (env: Env = process.env, options: LoadConfigOptions = {}): Config => {
  const cwd = options.cwd ?? process.cwd()
  // The real environment wins over `.env`, so a deployment can override a checked-in file.
  const vars = { ...readDotenv(cwd), ...definedOnly(env) }
  const lookup = (name: string): string | undefined => {
    const value = vars[name]?.trim()
    // `FOO=` (common in compose files) means "not set", not "set to nothing".
    return value === '' ? undefined : value
  }
  // Only declared variables are read (environment.ts); `lookup` is for names a config file gives.
  const get: Get = lookup
  const setting = (name: DefaultedVariable): string => get(name) ?? fallbackOf(name)
  const warnings: string[] = []
  const production = get('NODE_ENV') === 'production'
  const port = parsePort(setting('PORT'))
  const base = parseBaseUrl(get('BASE_URL') ?? `http://localhost:${port}`)
  if (production && !base.secure) {
    warnings.push(`BASE_URL ${base.baseUrl} is not https: cookies will not be marked Secure.`)
  }
  const dataDir = resolve(cwd, setting('DATA_DIR'))
  const databaseUrl = urlWithScheme(get, 'DATABASE_URL', ['postgres:', 'postgresql:'])
  const { rateLimit, socialProviders, scim, ...features } = loadFeatureOptions(cwd, get('TESSERA_CONFIG'))
  const mail = parseMail(get, setting('MAIL_FROM'))
  const eventStore = parseEventStore(get, setting('EVENT_STORE'), warnings)
  const trustProxy = parseTrustProxy(get('TRUST_PROXY'))
  const shape: ConfigShape = {
    ...features,
    socialProviders: resolveSocialProviders(socialProviders, lookup, warnings),
    scim: resolveScimOptions(scim, lookup, warnings),
    production,
    port,
    host: setting('HOST'),
    baseUrl: base.baseUrl,
    baseOrigin: base.origin,
    basePath: '/api/auth',
    secureCookies: base.secure,
    ...parseSecrets(get, production, warnings),
    dataDir,
    database: databaseUrl
      ? {
          kind: 'postgres',
          url: databaseUrl,
          preparedStatements: parsePreparedStatements(setting('DATABASE_PREPARED_STATEMENTS')),
        }
      : { kind: 'pglite', dataDir },
    eventStore,
    redisUrl: urlWithScheme(get, 'REDIS_URL', ['redis:', 'rediss:']),
    mail,
    trustedOrigins: parseTrustedOrigins(get('TRUSTED_ORIGINS'), base.origin),
    rateLimit: { enabled: parseRateLimitSwitch(get('RATE_LIMIT'), production), ...rateLimit },
    trustProxy,
    placeHeaders: parsePlaceHeaders(get, trustProxy !== false && trustProxy !== 0, warnings),
    logLevel: parseLogLevel(setting('LOG_LEVEL')),
    consistency: {
      readYourWritesMs: parseCount('READ_YOUR_WRITES_TIMEOUT_MS', setting('READ_YOUR_WRITES_TIMEOUT_MS')),
      projectorMaxAttempts: parseCount('PROJECTOR_MAX_ATTEMPTS', setting('PROJECTOR_MAX_ATTEMPTS')),
      readyMaxLagSeconds: parseCount('READY_MAX_LAG_SECONDS', setting('READY_MAX_LAG_SECONDS')),
    },
    serverKeys: parseServerKeys(get('SERVER_KEYS')),
    adminEmails: (get('ADMIN_EMAILS') ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter((email) => email.length > 0),
    warnings,
  }
  // Checked after the secret, whose problems come first.
  if (production && !mail.smtpUrl && !mail.httpUrl)
    // The log transport prints each mail with its link: live reset and deletion tokens in the logs.
    throw new ConfigError(
      'SMTP_URL',
      'SMTP_URL or MAIL_HTTP_URL is required when NODE_ENV=production: without one, mails and their one-time reset, verification and deletion links would be printed to the log.',
    )
  return deepFreeze(shape)
}

type Get = (name: EnvVariable) => string | undefined

// Behind a load balancer every request comes from the balancer: without this, rate limits and the
// audit log would see one client. Only trust what the deployment names.
const parseTrustProxy = (value: string | undefined): ConfigShape['trustProxy'] => {
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

const definedOnly = (env: Env): Record<string, string> => {
  const defined: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value
  return defined
}

const parseCount = (name: EnvVariable, value: string): number => {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1)
    throw new ConfigError(name, `${name} must be a positive integer (got "${value}")`)
  return Number(value)
}

const parsePort = (value: string): number => {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN
  if (!(port >= 0 && port <= 65_535)) {
    throw new ConfigError('PORT', `PORT must be an integer from 0 to 65535 (got "${value}")`)
  }
  return port
}

// URLs may carry passwords, so a bad one is described but never echoed.
const urlWithScheme = (get: Get, name: EnvVariable, protocols: readonly string[]): string | undefined => {
  const value = get(name)
  if (value === undefined) return undefined
  if (!URL.canParse(value) || !protocols.includes(new URL(value).protocol)) {
    const schemes = protocols.map((protocol) => `${protocol}//`).join(' or ')
    throw new ConfigError(name, `${name} must be a URL starting with ${schemes}`)
  }
  return value
}

const MAILBOX = /^(?:[^<>]*<[^<>\s]+@[^<>\s]+>|[^<>\s]+@[^<>\s]+)$/

const parseMail = (get: Get, mailFrom: string): ConfigShape['mail'] => {
  if (!MAILBOX.test(mailFrom)) {
    throw new ConfigError('MAIL_FROM', `MAIL_FROM must be an address or "Name <address>" (got "${mailFrom}")`)
  }
  const smtpUrl = urlWithScheme(get, 'SMTP_URL', ['smtp:', 'smtps:'])
  const httpUrl = urlWithScheme(get, 'MAIL_HTTP_URL', ['http:', 'https:'])
  const httpApiKey = get('MAIL_HTTP_API_KEY')
  if ((httpUrl === undefined) !== (httpApiKey === undefined)) {
    const missing = httpUrl === undefined ? 'MAIL_HTTP_URL' : 'MAIL_HTTP_API_KEY'
    throw new ConfigError(
      missing,
      `${missing} must be set too: the mail HTTP API needs its URL and its API key`,
    )
  }
  if (smtpUrl !== undefined && httpUrl !== undefined) {
    throw new ConfigError('SMTP_URL', 'SMTP_URL and MAIL_HTTP_URL are both set: choose one mail transport')
  }
  return { mailFrom, smtpUrl, httpUrl, httpApiKey }
}

const parsePreparedStatements = (value: string): boolean => {
  const normalised = value.toLowerCase()
  if (normalised !== 'on' && normalised !== 'off')
    throw new ConfigError(
      'DATABASE_PREPARED_STATEMENTS',
      `DATABASE_PREPARED_STATEMENTS must be "on" or "off" (got "${value}")`,
    )
  return normalised === 'on'
}

const parseRateLimitSwitch = (value: string | undefined, production: boolean): boolean => {
  if (value === undefined) return production
  const normalised = value.toLowerCase()
  if (normalised !== 'on' && normalised !== 'off') {
    throw new ConfigError('RATE_LIMIT', `RATE_LIMIT must be "on" or "off" (got "${value}")`)
  }
  return normalised === 'on'
}

// The client's schemes (kurrentdb, kurrent, kdb, esdb; `+discover` for a cluster by DNS) and a host.
const KURRENTDB_URL = /^(?:kurrentdb|kurrent|kdb|esdb)(?:\+discover)?:\/\/[^\s/?#]+/

/**
 * The SQL log (PostgreSQL, or PGlite embedded) by default; KurrentDB on request, with its URL.
 * Whether the server answers is checked when Tessera starts (app/server/tessera.ts).
 */
const parseEventStore = (get: Get, kind: string, warnings: string[]): ConfigShape['eventStore'] => {
  if (kind === 'postgres') {
    if (get('KURRENTDB_URL') !== undefined)
      warnings.push(
        'KURRENTDB_URL is set but EVENT_STORE is not "kurrentdb": the log stays in PostgreSQL (or PGlite).',
      )
    return { kind: 'sql' }
  }
  if (kind !== 'kurrentdb')
    throw new ConfigError('EVENT_STORE', `EVENT_STORE must be "postgres" or "kurrentdb" (got "${kind}")`)
  const url = get('KURRENTDB_URL')
  if (url === undefined)
    throw new ConfigError(
      'KURRENTDB_URL',
      'KURRENTDB_URL is required with EVENT_STORE=kurrentdb (for example kurrentdb://localhost:2113?tls=false)',
    )
  // Never echoed: it may hold a password.
  if (!KURRENTDB_URL.test(url))
    throw new ConfigError(
      'KURRENTDB_URL',
      'KURRENTDB_URL must be a KurrentDB connection string starting with kurrentdb:// or kurrentdb+discover:// and naming a host',
    )
  warnings.push(
    'EVENT_STORE=kurrentdb: the KurrentDB event store is experimental; it has not yet run against a real KurrentDB server in this project\'s tests (docs/architecture.md, "KurrentDB").',
  )
  return { kind: 'kurrentdb', url }
}

const SERVER_KEY_NAME = /^[A-Za-z0-9_-]{1,64}$/
const MIN_SERVER_KEY_LENGTH = 32

// Keys are secrets: a bad entry is named by its position and name, never echoed.
const parseServerKeys = (value: string | undefined): ConfigShape['serverKeys'] => {
  if (value === undefined) return []
  const keys: ConfigShape['serverKeys'] = []
  const entries = value.split(',').map((entry) => entry.trim())
  entries.forEach((entry, index) => {
    const separator = entry.indexOf('=')
    const name = separator === -1 ? '' : entry.slice(0, separator).trim()
    const key = separator === -1 ? '' : entry.slice(separator + 1).trim()
    const where = `SERVER_KEYS entry ${index + 1}`
    if (!SERVER_KEY_NAME.test(name))
      throw new ConfigError(
        'SERVER_KEYS',
        `${where} must be name=key, the name 1 to 64 letters, digits, "_" or "-"`,
      )
    if (key.length < MIN_SERVER_KEY_LENGTH || /\s/.test(key))
      throw new ConfigError(
        'SERVER_KEYS',
        `${where} ("${name}"): the key must be at least ${MIN_SERVER_KEY_LENGTH} characters without spaces`,
      )
    if (keys.some((known) => known.name === name))
      throw new ConfigError('SERVER_KEYS', `${where}: the name "${name}" is used twice`)
    if (keys.some((known) => known.key === key))
      throw new ConfigError('SERVER_KEYS', `${where} ("${name}"): the key is the same as another entry's`)
    keys.push({ name, key })
  })
  return keys
}

const parseLogLevel = (value: string): LogLevel => {
  const level = LOG_LEVELS.find((candidate) => candidate === value.toLowerCase())
  if (level === undefined) {
    throw new ConfigError('LOG_LEVEL', `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${value}")`)
  }
  return level
}

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}
