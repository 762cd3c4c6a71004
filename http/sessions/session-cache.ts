/// An in-process cache of resolved sessions, keyed by token hash, and of each user's list of
/// sessions (list-sessions). Correct only beside an in-process projector: every applied event
/// evicts what its declaration says it makes stale, so a revoked session is never served from here
/// once its revocation is in the read model.

import { declarationOf, subjectOf } from '../../domain/events.js'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import type { SessionWithUser } from '../../projections/sessions/sessions.repository.js'
import { createSessionListCache, type SessionList } from './session-list-cache.js'

const MAX_ENTRIES = 50_000

export type SessionCache = {
  get(tokenHash: string): SessionWithUser | undefined
  /** Changes whenever anything is evicted; take it before reading the database. */
  generation(): number
  /** Stores a value read while `generation` held; ignored if an eviction happened since. */
  set(tokenHash: string, value: SessionWithUser, generation: number): void
  /** The sessions a user lists (list-sessions.ts), when held. */
  listOf(userId: string): SessionList | undefined
  /** Stores a list read while `generation` held; ignored if an eviction happened since. */
  keepList(userId: string, list: SessionList, generation: number): void
  /** Applied events, or this process's own as it appends them (what ends a session must leave at once). */
  evictFor(events: readonly Pick<RecordedEvent, 'type' | 'data' | 'metadata'>[]): void
}

export const createSessionCache = (): SessionCache => {
  const byHash = new Map<string, SessionWithUser>()
  const hashBySession = new Map<string, string>()
  const hashesByUser = new Map<string, Set<string>>()
  const lists = createSessionListCache()
  let generation = 0

  const evict = (hash: string) => {
    const entry = byHash.get(hash)
    if (!entry) return
    byHash.delete(hash)
    hashBySession.delete(entry.session.id)
    hashesByUser.get(entry.user.id)?.delete(hash)
  }

  return {
    get: (hash) => byHash.get(hash),
    generation: () => generation,
    set(hash, value, readAt) {
      // A read that raced with an eviction may hold a revoked session: do not keep it.
      if (readAt !== generation) return
      if (byHash.size >= MAX_ENTRIES) {
        const oldest = byHash.keys().next().value
        if (oldest !== undefined) evict(oldest)
      }
      byHash.set(hash, value)
      hashBySession.set(value.session.id, hash)
      const hashes = hashesByUser.get(value.user.id) ?? new Set<string>()
      hashes.add(hash)
      hashesByUser.set(value.user.id, hashes)
    },
    listOf: (userId) => lists.get(userId),
    keepList(userId, list, readAt) {
      // As above: a list read before an eviction may miss a new session or show a revoked one.
      if (readAt === generation) lists.set(userId, list)
    },
    evictFor(events) {
      generation += 1
      for (const event of events) {
        // What an event makes stale is declared with its type (domain/events.ts).
        const invalidates = declarationOf(event.type)?.invalidates ?? 'nothing'
        if (invalidates === 'nothing') continue
        const { sessionId } = event.data as { sessionId?: unknown }
        const session = typeof sessionId === 'string' ? sessionId : null
        // A session event changes its user's list (a new session, a slide, a revocation); the list
        // holding the session is dropped too, for events whose subject is not its user.
        const subject = subjectOf(event)
        if (subject) lists.evictUser(subject)
        if (session) lists.evictHolding(session)
        if (invalidates === 'session') {
          const hash = session ? hashBySession.get(session) : undefined
          if (hash) evict(hash)
        } else {
          for (const hash of subject ? [...(hashesByUser.get(subject) ?? [])] : []) evict(hash)
        }
      }
    },
  }
}
