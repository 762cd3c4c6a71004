/// Rate limiting of the auth API: per client IP (IPv6 by its /64) and per normalised path, 3 per
/// 10 s on the routes that guess credentials or send mail and the configured default elsewhere; and
/// per recipient for the routes that send mail, so that nobody can mail-bomb an address from many
/// IPs. Counted in memory, or in Redis so that several instances share one count; a Redis outage
/// falls back to counting in memory (rate-limit-store.ts), never to no limit at all.
///
/// The IP limiter runs as an app-level `onRequest` hook for everything under the API base path, not
/// as a per-route hook: the router answers `//sign-in/email` or `/SIGN-IN/email` with a 404 before
/// any route hook would run, and those attempts must still count against the same bucket.

import { createHmac } from 'node:crypto'
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { percentDecode } from './percent-decode.js'
import {
  type CounterStore,
  closeRedis,
  connectRedis,
  memoryCounters,
  redisCounters,
  withFallback,
} from './rate-limit-store.js'

export type RateLimitConfig = {
  readonly basePath: string
  readonly rateLimit: { readonly enabled: boolean; readonly window: number; readonly max: number }
  readonly redisUrl: string | undefined
  /** Keys the per-recipient buckets, so that Redis never holds an address or its plain hash. */
  readonly secret?: string
}

type Rule = { window: number; max: number }

/** The spec's stricter rule, for the routes that guess or change credentials or send mail. */
const STRICT_RULE: Rule = { window: 10, max: 3 }
const STRICT_PREFIXES = [
  '/sign-in',
  '/sign-up',
  '/change-password',
  '/change-email',
  // Send mail (and /delete-user with a password checks it: no faster a password oracle than sign-in).
  '/send-verification-email',
  '/request-password-reset',
  '/forget-password',
  '/delete-user',
  // Check a password or a second-factor code, or send one (better-auth: 3 per 10 s on its
  // /two-factor/ routes; Tessera's read-only /two-factor/status keeps the default).
  '/two-factor/verify-',
  '/two-factor/send-otp',
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/get-totp-uri',
  '/two-factor/generate-backup-codes',
  // Magic links and email codes: every one of their routes sends mail or checks a code.
  '/magic-link',
  '/email-otp',
]
/** Two names for one route share one bucket: switching names must not double the allowance. */
const BUCKET_ALIASES: Readonly<Record<string, string>> = { '/forget-password': '/request-password-reset' }
/**
 * Mails to one address, whoever asks and from wherever: enough for a person who lost a mail or two,
 * far too few to bury an inbox. Counted before anyone looks the address up, so the refusal is the
 * same for an address with an account and one without.
 */
export const RECIPIENT_RULE: Rule = { window: 900, max: 5 }
/**
 * Invitations one person sends, to any addresses and from any organization: a team's worth in an
 * hour, far too few for a spam run through invitation mails (whose organization name the sender
 * chose). Tessera's own: better-auth limits pending invitations per organization only.
 */
export const INVITER_RULE: Rule = { window: 3600, max: 50 }
// An attacker who can create fresh buckets (one per path) could push their own sign-in bucket out
// of a small store and reset its count.
const MEMORY_BUCKETS = 100_000
// Paths are attacker-chosen: keys stay short so the store cannot be filled with long ones.
const MAX_KEY_PATH_LENGTH = 256
const DECODE_ROUNDS = 3
const REDIS_NAMESPACE = 'tessera:rate-limit:'
const IPV6_SUBNET = 64

/** Counts one mail to `address`; throws 429 TOO_MANY_REQUESTS past the per-recipient limit. */
export type RecipientLimit = (reply: FastifyReply, address: string) => Promise<void>

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by registerRateLimit when rate limiting is on. */
    tesseraRecipientLimit?: RecipientLimit
    /** The per-inviter limit (INVITER_RULE), keyed by the inviter's user id. */
    tesseraInviterLimit?: RecipientLimit
  }
}

/** The per-recipient limit for a request; nothing when rate limiting is off. */
export const limitRecipient: RecipientLimit = async (reply, address) => {
  await reply.server.tesseraRecipientLimit?.(reply, address)
}

/** Counts one invitation sent by `userId`; 429 past the per-inviter limit. */
export const limitInviter: RecipientLimit = async (reply, userId) => {
  await reply.server.tesseraInviterLimit?.(reply, userId)
}

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
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log, 'rate limit store') : null
  if (redis) app.addHook('onClose', () => closeRedis(redis))
  const memory = memoryCounters(MEMORY_BUCKETS)
  const counters: CounterStore = redis
    ? withFallback(redisCounters(redis, REDIS_NAMESPACE), memory, app.log)
    : memory
  const ruleFor = (path: string): Rule =>
    STRICT_PREFIXES.some((prefix) => path.startsWith(prefix)) ? STRICT_RULE : config.rateLimit

  const enforce = async (key: string, rule: Rule, reply: FastifyReply) => {
    const { count, ttlMs } = await counters.hit(key, rule.window * 1000)
    if (count <= rule.max) return
    reply.header('x-retry-after', String(Math.max(1, Math.ceil(ttlMs / 1000))))
    throw AUTH_ERRORS.error('TOO_MANY_REQUESTS')
  }

  app.addHook('onRequest', async (request, reply) => {
    if (exempt(request)) return
    const key = rateLimitKey(request, config.basePath)
    if (key === null) return
    await enforce(key, ruleFor(key.slice(key.indexOf('|') + 1)), reply)
  })

  const recipientKey = (address: string) => {
    const normalized = address.trim().toLowerCase()
    const digest = createHmac('sha256', config.secret ?? 'tessera-recipient')
      .update(normalized)
      .digest('hex')
    return `recipient|${digest}`
  }
  const recipientLimit: RecipientLimit = (reply, address) =>
    enforce(recipientKey(address), RECIPIENT_RULE, reply)
  app.decorate('tesseraRecipientLimit', recipientLimit)
  app.decorate('tesseraInviterLimit', (reply: FastifyReply, userId: string) =>
    enforce(`inviter|${userId}`, INVITER_RULE, reply),
  )
}

/** `ip|path` for a request under the API base path, or null for anything else. */
export const rateLimitKey = (
  request: Pick<FastifyRequest, 'ip' | 'url'>,
  basePath: string,
): string | null => {
  const path = apiPathOf(request.url, basePath)
  if (path === null) return null
  const ip = request.ip ? normalizeIP(request.ip, IPV6_SUBNET) : 'unknown'
  return `${ip}|${(BUCKET_ALIASES[path] ?? path).slice(0, MAX_KEY_PATH_LENGTH)}`
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
