/// The server API's guard: how the application's backend (not a browser, not a user) calls Tessera.
///
/// A backend sends `x-tessera-server-key: <key>`, one of the keys the operator put in `SERVER_KEYS`
/// (`name=key,…`). The guard compares it in constant time with every configured key, refuses it
/// from anything that looks like a browser or a user session (a cookie, an `Authorization` header or
/// an `Origin` header: 403), limits each server key on its own bucket and failed guesses per client
/// address, and names the caller `server:<name>` for the audit trail. A server key never stands for
/// a user session, and a session never reaches a server-only operation.
///
/// The counts live where the auth API's rate limits live (infra/http/rate-limit-store.ts): in Redis
/// when `REDIS_URL` is set, so that N instances allow a key its limit once and not N times, with a
/// Redis outage falling back to counting in this process's memory (logged), never to no limit.
///
/// How a route uses it (command and query routes alike, this module sits below both):
///
///   // `ctx.serverApi` is built once per process (app/server/tessera.ts), for its rate limits.
///   app.post('/admin/…', { onRequest: ctx.serverApi.requireServerKey, schema }, async (request) => {
///     const caller = serverCallerOf(request)              // { name: 'billing' }
///     const actor = serverActor(caller)                   // { type: 'server', name: 'billing' }
///     await useCase(ctx, originOf(request), { actor, … }) // metadataFor(origin, actor, now)
///   })
///
/// A route that serves users and backends alike (e.g. `/api-key/create` with server-only
/// properties) awaits `ctx.serverApi.optionalServerKey(request, reply)`: null without the header, the
/// caller with a good key, and the same refusals as `requireServerKey` for a bad or misplaced one.

import { createHash, timingSafeEqual } from 'node:crypto'
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_ERRORS, type AuthErrorCode } from '../../domain/errors.js'
import type { Actor } from '../../domain/shared/metadata.js'
import {
  type CounterStore,
  closeRedis,
  connectRedis,
  type FallbackLog,
  memoryCounters,
  redisCounters,
  withFallback,
} from '../../infra/http/rate-limit-store.js'

export const SERVER_KEY_HEADER = 'x-tessera-server-key'

export type ServerCaller = { readonly name: string }

/** The configured keys plus the limits; the defaults suit one backend's steady traffic. */
export type ServerKeyGuardOptions = {
  serverKeys: readonly { readonly name: string; readonly key: string }[]
  clock: () => Date
  /** Calls per server key per window (its own bucket, not the per-address limits). */
  perKey?: { max: number; windowMs: number }
  /** Wrong keys per client address per window, before that address is refused outright. */
  failures?: { max: number; windowMs: number }
  /** With a Redis URL, `open` moves the counts there (shared by every instance). */
  redisUrl?: string | undefined
  log?: FallbackLog & { warn(obj: object, msg: string): void }
}

export type ServerKeyGuards = {
  /** An onRequest hook (ahead of body validation): a good server key and nothing of a browser's. */
  requireServerKey(request: FastifyRequest, reply: FastifyReply): Promise<void>
  /** For routes serving users and backends: null without the header, else as `requireServerKey`. */
  optionalServerKey(request: FastifyRequest, reply: FastifyReply): Promise<ServerCaller | null>
  /** Whether the header holds a configured key (no limits counted); the app's IP limiter skips those. */
  holdsServerKey(request: Pick<FastifyRequest, 'headers'>): boolean
  /**
   * Before serving: connects to Redis when configured (a wrong REDIS_URL stops the start). Until
   * then, and without Redis, the counts are this process's own.
   */
  open(): Promise<void>
  /** Closes the Redis connection, if any. */
  close(): Promise<void>
}

const callers = new WeakMap<FastifyRequest, ServerCaller>()

/** The caller `requireServerKey` accepted; only call in routes that use it. */
export const serverCallerOf = (request: FastifyRequest): ServerCaller => {
  const caller = callers.get(request)
  if (!caller) throw AUTH_ERRORS.error('SERVER_ONLY_OPERATION')
  return caller
}

/** The actor a server-API command records: `server:<name>` in the audit trail. */
export const serverActor = (caller: ServerCaller): Actor => ({ type: 'server', name: caller.name })

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest()

const DEFAULT_PER_KEY = { max: 200_000, windowMs: 10_000 }
const DEFAULT_FAILURES = { max: 10, windowMs: 60_000 }
// Buckets in memory: one per server key plus one per address that sent a wrong key; when full, the
// oldest window goes first.
const MAX_TRACKED_BUCKETS = 10_000
// Apart from the auth API's buckets (`tessera:rate-limit:`), so that no path or name collides.
const REDIS_NAMESPACE = 'tessera:server-key:'
const IPV6_SUBNET = 64

/** The guard as configured: `SERVER_KEYS`, `serverApi.rateLimit` (tessera.config.json), `REDIS_URL`. */
export const serverKeyGuardsFor = (
  config: {
    serverKeys: ServerKeyGuardOptions['serverKeys']
    serverApi: { rateLimit: { window: number; max: number } }
    redisUrl: string | undefined
  },
  clock: () => Date,
  log: NonNullable<ServerKeyGuardOptions['log']>,
): ServerKeyGuards =>
  serverKeyGuards({
    serverKeys: config.serverKeys,
    clock,
    perKey: { max: config.serverApi.rateLimit.max, windowMs: config.serverApi.rateLimit.window * 1000 },
    redisUrl: config.redisUrl,
    log,
  })

export const serverKeyGuards = ({
  serverKeys,
  clock,
  perKey = DEFAULT_PER_KEY,
  failures = DEFAULT_FAILURES,
  redisUrl,
  log,
}: ServerKeyGuardOptions): ServerKeyGuards => {
  // Digests have one length, so `timingSafeEqual` never throws and the key's length does not leak.
  const known = serverKeys.map(({ name, key }) => ({ name, digest: digest(key) }))
  const memory = memoryCounters(MAX_TRACKED_BUCKETS, () => clock().getTime())
  let counters: CounterStore = memory
  let redis: Awaited<ReturnType<typeof connectRedis>> | null = null

  const identify = (presented: string): ServerCaller | null => {
    const candidate = digest(presented)
    let match: ServerCaller | null = null
    // Every configured key is compared, so the time does not say which one (if any) matched.
    for (const entry of known)
      if (timingSafeEqual(candidate, entry.digest) && !match) match = { name: entry.name }
    return match
  }

  const tooMany = (reply: FastifyReply, ttlMs: number) => {
    reply.header('x-retry-after', String(Math.max(1, Math.ceil(ttlMs / 1000))))
    return AUTH_ERRORS.error('TOO_MANY_REQUESTS')
  }

  const headerOf = (request: Pick<FastifyRequest, 'headers'>): string | null => {
    const value = request.headers[SERVER_KEY_HEADER]
    return typeof value === 'string' && value.length > 0 ? value : null
  }

  const check = async (
    request: FastifyRequest,
    reply: FastifyReply,
    presented: string,
  ): Promise<ServerCaller> => {
    // An IPv6 client holds a whole /64, as the auth API's limiter counts it (infra/http/rate-limit.ts).
    const failuresKey = `failures|${request.ip ? normalizeIP(request.ip, IPV6_SUBNET) : 'unknown'}`
    const caller = identify(presented)
    // One round trip: a blocked address is refused before anything else is answered (it learns
    // nothing, not even from a right guess); otherwise a wrong key counts against the address and a
    // right one against its own bucket.
    const gate = await counters.hitUnlessBlocked(
      { key: failuresKey, max: failures.max },
      caller ? `key|${caller.name}` : failuresKey,
      caller ? perKey.windowMs : failures.windowMs,
    )
    if (gate.blocked) throw tooMany(reply, gate.ttlMs)
    if (!caller) throw AUTH_ERRORS.error('INVALID_SERVER_KEY')
    const { headers } = request
    if (headers.cookie !== undefined || headers.authorization !== undefined || headers.origin !== undefined)
      throw AUTH_ERRORS.error('SERVER_KEY_FROM_BROWSER')
    if (gate.count > perKey.max) throw tooMany(reply, gate.ttlMs)
    callers.set(request, caller)
    return caller
  }

  return {
    async requireServerKey(request, reply) {
      const presented = headerOf(request)
      if (presented === null) throw AUTH_ERRORS.error('SERVER_ONLY_OPERATION')
      await check(request, reply, presented)
    },
    async optionalServerKey(request, reply) {
      const presented = headerOf(request)
      return presented === null ? null : check(request, reply, presented)
    },
    holdsServerKey(request) {
      const presented = headerOf(request)
      return presented !== null && identify(presented) !== null
    },
    async open() {
      // Without a server key there is nothing to count; no connection is opened for nothing.
      if (!redisUrl || !log || known.length === 0 || redis) return
      redis = await connectRedis(redisUrl, log, 'server key limits')
      counters = withFallback(redisCounters(redis, REDIS_NAMESPACE), memory, log)
    },
    async close() {
      const open = redis
      redis = null
      counters = memory
      if (open) await closeRedis(open)
    },
  }
}

/** What every server-API route may answer besides its own errors (for `errorResponses`). */
export const SERVER_API_ERRORS = [
  'VALIDATION_ERROR',
  'TOO_MANY_REQUESTS',
  'SERVER_ONLY_OPERATION',
  'INVALID_SERVER_KEY',
  'SERVER_KEY_FROM_BROWSER',
] as const satisfies readonly AuthErrorCode[]

/** The OpenAPI security requirement of a server-API route (the `serverKey` scheme). */
export const SERVER_API_SECURITY = [{ serverKey: [] }]
