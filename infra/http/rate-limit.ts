/// Rate limiting of the auth API with `@fastify/rate-limit`: per client IP (IPv6 by its /64) and
/// per normalised path, 3 per 10 s on the credential routes and the configured default elsewhere,
/// in memory or in Redis so that several instances share one count.
///
/// The limiter runs as an app-level `onRequest` hook for everything under the API base path, not as
/// a per-route hook: the router answers `//sign-in/email` or `/SIGN-IN/email` with a 404 before any
/// route hook would run, and those attempts must still count against the same bucket.

import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Redis } from 'ioredis'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { percentDecode } from './percent-decode.js'

export type RateLimitConfig = {
  readonly basePath: string
  readonly rateLimit: { readonly enabled: boolean; readonly window: number; readonly max: number }
  readonly redisUrl: string | undefined
}

type Rule = { window: number; max: number }

/** The spec's stricter rule for the routes that guess or change credentials. */
const CREDENTIAL_RULE: Rule = { window: 10, max: 3 }
const CREDENTIAL_PREFIXES = ['/sign-in', '/sign-up', '/change-password', '/change-email']
// The default in-memory store is an LRU of 5,000 buckets; an attacker who can create fresh buckets
// (one per path) could push their own sign-in bucket out of a small one and reset its count.
const MEMORY_BUCKETS = 100_000
// Paths are attacker-chosen: keys stay short so the store cannot be filled with long ones.
const MAX_KEY_PATH_LENGTH = 256
const DECODE_ROUNDS = 3
const REDIS_NAMESPACE = 'tessera:rate-limit:'
const IPV6_SUBNET = 64

/**
 * Registers the limiter when enabled; a Redis connection, if any, is closed with the app.
 * `exempt` names requests limited elsewhere (the server API's callers have their own buckets).
 */
export const registerRateLimit = async (
  app: FastifyInstance,
  config: RateLimitConfig,
  exempt: (request: FastifyRequest) => boolean = () => false,
): Promise<void> => {
  if (!config.rateLimit.enabled) return
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app) : null
  if (redis) app.addHook('onClose', () => closeRedis(redis))
  const ruleFor = (path: string): Rule =>
    CREDENTIAL_PREFIXES.some((prefix) => path.startsWith(prefix)) ? CREDENTIAL_RULE : config.rateLimit
  const pathOfKey = (key: string) => key.slice(key.indexOf('|') + 1)
  await app.register(fastifyRateLimit, {
    // No per-route hooks: the hook below covers every API path, routed or not.
    global: false,
    cache: MEMORY_BUCKETS,
    ...(redis ? { redis, nameSpace: REDIS_NAMESPACE } : {}),
    keyGenerator: (request) => rateLimitKey(request, config.basePath) ?? '',
    max: (_request, key) => ruleFor(pathOfKey(key)).max,
    timeWindow: (_request, key) => ruleFor(pathOfKey(key)).window * 1000,
  })
  const limit = app.createRateLimit()
  app.addHook('onRequest', async (request, reply) => {
    if (apiPathOf(request.url, config.basePath) === null || exempt(request)) return
    const outcome = await consume(limit, request)
    if (outcome.isAllowed || !outcome.isExceeded) return
    reply.header('x-retry-after', String(Math.max(1, outcome.ttlInSeconds)))
    throw AUTH_ERRORS.error('TOO_MANY_REQUESTS')
  })
}

type Limit = ReturnType<FastifyInstance['createRateLimit']>
type Outcome = Awaited<ReturnType<Limit>>

// A store failure (Redis unreachable mid-flight) lets the request through: losing the limit for a
// moment is better than refusing every sign-in while Redis is down.
const consume = async (limit: Limit, request: FastifyRequest): Promise<Outcome> => {
  try {
    return await limit(request)
  } catch (error) {
    request.log.error({ err: error }, 'rate limit store failed; request let through')
    return { isAllowed: true, key: '' }
  }
}

/** `ip|path` for a request under the API base path, or null for anything else. */
export const rateLimitKey = (
  request: Pick<FastifyRequest, 'ip' | 'url'>,
  basePath: string,
): string | null => {
  const path = apiPathOf(request.url, basePath)
  if (path === null) return null
  const ip = request.ip ? normalizeIP(request.ip, IPV6_SUBNET) : 'unknown'
  return `${ip}|${path.slice(0, MAX_KEY_PATH_LENGTH)}`
}

/**
 * The path below the API base path in one canonical spelling, or null when the request is not for
 * the API: percent-decoded (also `%2F`), backslashes as slashes, lowercase, dot segments resolved,
 * repeated and trailing slashes dropped. `//API/auth//Sign-In%2Femail/` becomes `/sign-in/email`.
 */
export const apiPathOf = (url: string, basePath: string): string | null => {
  const path = canonicalPath(url)
  if (path === basePath) return '/'
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : null
}

const canonicalPath = (url: string): string => {
  // Absolute-form request targets (`GET http://host/path`) carry the path after the authority.
  const target = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url.replace(/^[^:]+:\/\/[^/]*/, '') : url
  const queryStart = target.search(/[?#]/)
  let path = queryStart === -1 ? target : target.slice(0, queryStart)
  for (let round = 0; round < DECODE_ROUNDS && path.includes('%'); round++) path = percentDecode(path)
  const segments: string[] = []
  for (const segment of path.replaceAll('\\', '/').toLowerCase().split('/')) {
    if (segment === '..') segments.pop()
    else if (segment !== '' && segment !== '.') segments.push(segment)
  }
  return `/${segments.join('/')}`
}

/**
 * Connects before the app serves, so a wrong REDIS_URL fails at start. Afterwards commands fail
 * fast instead of queueing while Redis is unreachable (see `consume`), and ioredis reconnects.
 */
const connectRedis = async (url: string, app: FastifyInstance): Promise<Redis> => {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
  })
  redis.on('error', (error: Error) =>
    app.log.warn({ err: error }, 'redis (rate limit store) connection error'),
  )
  try {
    await redis.connect()
  } catch (error) {
    redis.disconnect()
    // The URL may hold a password, so it is not repeated.
    throw new Error(
      `Cannot connect to Redis at REDIS_URL: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  return redis
}

// `quit` lets pending replies arrive; with Redis already gone it fails, and `disconnect` is enough.
const closeRedis = async (redis: Redis): Promise<void> => {
  try {
    await redis.quit()
  } catch {
    redis.disconnect()
  }
}
