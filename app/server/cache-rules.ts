/// The rules this process's caches (sessions, API keys, the OpenID provider's clients and tokens) live
/// by: its own revocations evict as they commit, and another instance's reach a cache only through
/// this process's projector, so a cache is read only while that projector runs.

import type { ApiKeyCache } from '../../command-api/api-key/api-key-cache.js'
import type { OAuthProviderCache } from '../../command-api/oauth-provider/provider-cache.js'
import type { SessionCache } from '../../http/sessions/session-cache.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import type { Projector } from '../../projections/runner/projector.js'

/** This process's own revocations leave the caches as they commit, before any projector runs. */
export const evictingOnAppend = (
  store: EventStore,
  caches: readonly Pick<SessionCache | ApiKeyCache | OAuthProviderCache, 'evictFor'>[],
): EventStore => ({
  appendToStream: async (stream, events, options) => {
    const result = await store.appendToStream(stream, events, options)
    for (const cache of caches) cache.evictFor(events)
    return result
  },
  appendToStreams: async (appends) => {
    try {
      return await store.appendToStreams(appends)
    } finally {
      // A store that appends stream by stream may have written the first parts before a failure.
      for (const cache of caches) for (const { events } of appends) cache.evictFor(events)
    }
  },
  readStream: (stream, options) => store.readStream(stream, options),
  readAll: (after, limit, options) => store.readAll(after, limit, options),
  readAllOpening: (after, limit, open) => store.readAllOpening(after, limit, open),
  head: (after, countLimit) => store.head(after, countLimit),
  claimOwner: (scope, value) => store.claimOwner(scope, value),
  subscribe: (listener) => store.subscribe(listener),
  close: () => store.close(),
})

/**
 * Another instance's revocation reaches this cache only through this process's projector: while it
 * is stopped, retrying or halted, every lookup reads the database (which honours pending
 * revocations) instead.
 */
export const trustedWhileProjecting = (cache: SessionCache, projector: Projector): SessionCache => ({
  ...cache,
  get: (tokenHash) => (projector.status().state === 'running' ? cache.get(tokenHash) : undefined),
  listOf: (userId) => (projector.status().state === 'running' ? cache.listOf(userId) : undefined),
})

/** The API-key cache under the session cache's rule: read only while this process's projector runs. */
export const keyCacheTrustedWhileProjecting = (cache: ApiKeyCache, projector: Projector): ApiKeyCache => ({
  ...cache,
  get: (keyHash) => (projector.status().state === 'running' ? cache.get(keyHash) : undefined),
})
