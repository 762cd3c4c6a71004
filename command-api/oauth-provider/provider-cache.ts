/// An in-process cache of what the OpenID provider checks on every token request, so that the hot
/// paths read nothing:
///
/// - its clients by id (their settings and their secret's SHA-256 hash, which is still compared in
///   constant time on every request), for client authentication at the token, introspection and
///   revocation endpoints;
/// - the origins of access tokens (`grant:<id>`, `client:<id>`, `user:<id>`) found not revoked in
///   the inline record (projections/oauth-provider/oauth-revocations.ts), for introspection and
///   userinfo;
/// - people by id (their users row), for the claims of ID tokens and userinfo: the token
///   endpoint's code exchange and refresh read nothing else of the read models.
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
///
/// A person's row changes only by their own events (`user.*`, projections/users/users.projection.ts),
/// each of which evicts it: a changed name, address, verified flag or picture, a ban or a deletion.
/// Across processes the token endpoint's claims are exact, not only eventually: a code exchange or
/// refresh appends to its grant and `handle` waits until this process's projector has passed that
/// event. Whatever another instance answered before the request arrived committed earlier, so its
/// transaction id, and with it its place in the log, precedes the grant's event (an id is drawn at a
/// transaction's first write); the projector hears every event up to there, applied here or by
/// another instance (`adopt`, projections/runner/projector-roles.ts), before the wait ends, and the
/// row is read after it. userinfo appends nothing, so there another instance's change is seen once
/// this projector hears of it (a notification's delay), as the session cache's user and the live
/// origins above are: the same window as get-session's.

import type { Kysely } from 'kysely'
import { USER_EVENT_DECLARATIONS } from '../../domain/user/user.declarations.js'
import type { KnownUser, UserLookup } from '../../http/ports/user-lookup.js'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import type { Database } from '../../projections/database.js'
import { findClient, type StoredClient } from '../../projections/oauth-provider/oauth-provider.repository.js'
import { anyRevoked } from '../../projections/oauth-provider/oauth-revocations.js'

const MAX_CLIENTS = 10_000
const MAX_LIVE = 100_000
const MAX_USERS = 10_000

export type OAuthProviderCache = {
  client(clientId: string): StoredClient | undefined
  user(userId: string): KnownUser | undefined
  /** Whether the origin (`grant:<id>`, ...) was found not revoked since the last eviction of it. */
  live(origin: string): boolean
  /** Changes whenever anything is evicted; take it before reading the database. */
  generation(): number
  /** Keeps a client read while `generation` held; ignored if an eviction happened since. */
  keepClient(client: StoredClient, generation: number): void
  /** Keeps a person's row read while `generation` held; ignored if an eviction happened since. */
  keepUser(user: KnownUser, generation: number): void
  /** Keeps origins found not revoked while `generation` held; ignored if an eviction happened since. */
  keepLive(origins: readonly string[], generation: number): void
  /** Applied events, or this process's own as it appends them. */
  evictFor(events: readonly Pick<RecordedEvent, 'type' | 'data'>[]): void
}

/** Events after which a client must be read again, and the origin each ends. */
const CLIENT_EVENTS = new Set(['oauth-client.updated', 'oauth-client.secret-rotated', 'oauth-client.deleted'])
/** The events that change a person's row: every event of theirs (the user aggregate's). */
const isUserEvent = (type: string) => Object.hasOwn(USER_EVENT_DECLARATIONS, type)
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
  const users = new Map<string, KnownUser>()
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
    if (isUserEvent(type)) {
      const userId = idOf(data, 'userId')
      if (userId) users.delete(userId)
      // A person's clients stay (as the read model keeps them); their tokens end.
      if (type === 'user.deleted') forget(`user:${userId}`)
      return true
    }
    if (!DROP_ALL.has(type)) return false
    clients.clear()
    liveOrigins.clear()
    return true
  }

  return {
    client: (clientId) => clients.get(clientId),
    user: (userId) => users.get(userId),
    live: (origin) => liveOrigins.has(origin),
    generation: () => generation,
    keepClient(client, readAt) {
      // A read that raced with an eviction may hold a rotated secret or a deleted client.
      if (readAt === generation) bounded(clients, MAX_CLIENTS, client.clientId, client)
    },
    keepUser(user, readAt) {
      // A read that raced with an eviction may hold the name or the ban before a change.
      if (readAt === generation) bounded(users, MAX_USERS, user.id, user)
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
  user: (userId) => (trusted() ? cache.user(userId) : undefined),
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

/**
 * A person's row, for the claims of their tokens and userinfo: from the cache where this process
 * keeps one, else from the read model. On the token endpoint, read only after the grant's command
 * (see the header: that is what makes it exact across processes).
 */
export const userById = async (
  ctx: { lookups: { users: Pick<UserLookup, 'byId'> }; oauthCache?: OAuthProviderCache | null | undefined },
  userId: string,
): Promise<KnownUser | undefined> => {
  const cache = ctx.oauthCache
  if (!cache) return ctx.lookups.users.byId(userId)
  const cached = cache.user(userId)
  if (cached) return cached
  const readAt = cache.generation()
  const user = await ctx.lookups.users.byId(userId)
  if (user) cache.keepUser(user, readAt)
  return user
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
