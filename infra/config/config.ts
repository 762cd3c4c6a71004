/// Tessera's configuration: environment variables (a `.env` file in the working directory fills in
/// what the real environment does not set) and the optional `tessera.config.json`, checked once
/// at start into one typed, frozen object. Every value has a default that works on a laptop.

import { resolve } from 'node:path'
import { ConfigError } from './config-error.js'
import { type FeatureOptions, loadFeatureOptions } from './config-file.js'
import { readDotenv } from './dotenv.js'
import {
  type Get,
  parseCount,
  parseLogLevel,
  parsePercent,
  parsePort,
  parsePreparedStatements,
  parseRateLimitSwitch,
  parseTrustProxy,
  type TrustProxy,
  urlWithScheme,
} from './env-values.js'
import { type DefaultedVariable, fallbackOf } from './environment.js'
import { type EventStoreConfig, parseEventStore } from './event-store-config.js'
import type { LogLevel } from './log-levels.js'
import { type MailConfig, parseMail } from './mail-config.js'
import { parseBaseUrl, parseTrustedOrigins } from './origins.js'
import { type PlaceHeaders, parsePlaceHeaders } from './place-headers.js'
import { resolveScimOptions, type ScimSettings } from './scim-options.js'
import { parseSecrets } from './secret.js'
import { parseServerKeys, type ServerKey } from './server-keys.js'
import { resolveSocialProviders, type SocialProviderSettings } from './social-providers.js'

export { ConfigError } from './config-error.js'
export type { FeatureOptions } from './config-file.js'
export { LOG_LEVELS, type LogLevel } from './log-levels.js'
export { acceptedSecrets, DEVELOPMENT_SECRET } from './secret.js'

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
  eventStore: EventStoreConfig
  redisUrl: string | undefined
  mail: MailConfig
  /** Origins and `https://*.example.com` patterns; the base URL's origin first. */
  trustedOrigins: string[]
  rateLimit: { enabled: boolean; window: number; max: number }
  /**
   * Which proxies to believe about the client address (X-Forwarded-For), as Fastify's `trustProxy`:
   * false (the socket address is the client), a hop count, or a list of addresses/CIDRs.
   */
  trustProxy: TrustProxy
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
    /** Percent of its full pace a `--role projector` far behind keeps on a busy database (catch-up-pacing.ts). */
    projectorCatchUpShare: number
  }
  /**
   * The application backends allowed to call the server API (`x-tessera-server-key`), from
   * `SERVER_KEYS` (`name=key,…`); none configured means the server API refuses every call.
   */
  serverKeys: ServerKey[]
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
      projectorCatchUpShare: parsePercent('PROJECTOR_CATCH_UP_SHARE', setting('PROJECTOR_CATCH_UP_SHARE')),
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

const definedOnly = (env: Env): Record<string, string> => {
  const defined: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value
  return defined
}

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}
