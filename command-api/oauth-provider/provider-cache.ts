/// An in-process cache of what the OpenID provider checks on every token request, so that the hot
/// paths read nothing:
///
/// - its clients by id (their settings and their secret's SHA-256 hash, which is still compared in
///   constant time on every request), for client authentication at the token, introspection and
///   revocation endpoints;
/// - the origins of access tokens (`grant:<id>`, `client:<id>`, `user:<id>`) found not revoked in
///   the inline record (projections/oauth-provider/oauth-revocations.ts), for introspection and
///   userinfo.
///
/// It follows the session and API-key caches' rule (docs/architecture.md, "Consistency"):
/// - it exists only in a process that projects, and is trusted only while that projector runs
///   (app/server/tessera.ts): another instance's change reaches it only through the projector, and
///   that instance answers only once this projector has applied the change;
/// - every event that changes or ends a client, a grant or a person evicts what it touches, in this
///   process as the append returns (before the rotation or revocation is answered), and in every
///   other as its projector applies it;
/// - a value read from the database is kept only if nothing was evicted meanwhile (`generation`),
///   so a read that raced with a rotation or a revocation never brings the old state back.
///
/// Unknown clients and revoked origins are not cached: only what may still be refused later is.

import type { Kysely } from 'kysely'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import type { Database } from '../../projections/database.js'
import { findClient, type StoredClient } from '../../projections/oauth-provider/oauth-provider.repository.js'
import { anyRevoked } from '../../projections/oauth-provider/oauth-revocations.js'

const MAX_CLIENTS = 10_000
const MAX_LIVE = 100_000

export type OAuthProviderCache = {
  client(clientId: string): StoredClient | undefined
  /** Whether the origin (`grant:<id>`, ...) was found not revoked since the last eviction of it. */
  live(origin: string): boolean
  /** Changes whenever anything is evicted; take it before reading the database. */
  generation(): number
  /** Keeps a client read while `generation` held; ignored if an eviction happened since. */
  keepClient(client: StoredClient, generation: number): void
  /** Keeps origins found not revoked while `generation` held; ignored if an eviction happened since. */
  keepLive(origins: readonly string[], generation: number): void
  /** Applied events, or this process's own as it appends them. */
  evictFor(events: readonly Pick<RecordedEvent, 'type' | 'data'>[]): void
}

/** Events after which a client must be read again, and the origin each ends. */
const CLIENT_EVENTS = new Set(['oauth-client.updated', 'oauth-client.secret-rotated', 'oauth-client.deleted'])
/** Events that take clients with them (an organization's): rare, so everything is dropped. */
const DROP_ALL = new Set(['organization.deleted'])

const idOf = (data: object, field: string): string | null => {
  const value = (data as Record<string, unknown>)[field]
  return typeof value === 'string' ? value : null
}

const bounded = <V>(map: Map<string, V>, max: number, key: string, value: V) => {
  if (map.size >= max) {
    const oldest = map.keys().next().value
    if (oldest !== undefined) map.delete(oldest)
  }
  map.set(key, value)
}

export const createOAuthProviderCache = (): OAuthProviderCache => {
  const clients = new Map<string, StoredClient>()
  const liveOrigins = new Map<string, true>()
  let generation = 0

  const forget = (origin: string) => {
    liveOrigins.delete(origin)
    return true
  }
  const evictOne = ({ type, data }: Pick<RecordedEvent, 'type' | 'data'>): boolean => {
    if (CLIENT_EVENTS.has(type)) {
      const clientId = idOf(data, 'clientId')
      if (clientId) clients.delete(clientId)
      return forget(`client:${clientId}`)
    }
    if (type === 'oauth-grant.revoked') return forget(`grant:${idOf(data, 'grantId')}`)
    // A person's clients stay (as the read model keeps them); their tokens end.
    if (type === 'user.deleted') return forget(`user:${idOf(data, 'userId')}`)
    if (!DROP_ALL.has(type)) return false
    clients.clear()
    liveOrigins.clear()
    return true
  }

  return {
    client: (clientId) => clients.get(clientId),
    live: (origin) => liveOrigins.has(origin),
    generation: () => generation,
    keepClient(client, readAt) {
      // A read that raced with an eviction may hold a rotated secret or a deleted client.
      if (readAt === generation) bounded(clients, MAX_CLIENTS, client.clientId, client)
    },
    keepLive(origins, readAt) {
      // A read that raced with an eviction may have missed a revocation just committed.
      if (readAt === generation) for (const origin of origins) bounded(liveOrigins, MAX_LIVE, origin, true)
    },
    evictFor(events) {
      let touched = false
      for (const event of events) if (evictOne(event)) touched = true
      if (touched) generation += 1
    },
  }
}

/** The cache read only while `trusted` says so (this process's projector runs); the database else. */
export const trustedWhile = (cache: OAuthProviderCache, trusted: () => boolean): OAuthProviderCache => ({
  ...cache,
  client: (clientId) => (trusted() ? cache.client(clientId) : undefined),
  live: (origin) => trusted() && cache.live(origin),
})

/** What the lookups need of the command context (context.ts names the cache this way). */
type Ports = { db: Kysely<Database>; oauthCache?: OAuthProviderCache | null | undefined }

/** A client by id: from the cache where this process keeps one, else from the read model. */
export const clientById = async (ctx: Ports, clientId: string): Promise<StoredClient | undefined> => {
  const cache = ctx.oauthCache
  if (!cache) return findClient(ctx.db, clientId)
  const cached = cache.client(clientId)
  if (cached) return cached
  const readAt = cache.generation()
  const client = await findClient(ctx.db, clientId)
  if (client) cache.keepClient(client, readAt)
  return client
}

/** What an access token names: its grant (a person's token), its client, and its person. */
export type TokenOrigins = { grantId?: string | undefined; clientId: string; userId?: string | undefined }

/** Whether a token's grant, client or person ended: known live here, else one lookup. */
export const tokenRevoked = async (ctx: Ports, origins: TokenOrigins): Promise<boolean> => {
  const keys = [
    `client:${origins.clientId}`,
    ...(origins.grantId ? [`grant:${origins.grantId}`] : []),
    ...(origins.userId ? [`user:${origins.userId}`] : []),
  ]
  const cache = ctx.oauthCache
  if (cache && keys.every((key) => cache.live(key))) return false
  const readAt = cache?.generation() ?? 0
  const revoked = await anyRevoked(ctx.db, keys)
  if (!revoked) cache?.keepLive(keys, readAt)
  return revoked
}
