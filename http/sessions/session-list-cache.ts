/// Each user's list-sessions answer, held in memory by the session cache (session-cache.ts), which
/// evicts a user's list whenever an event declared to invalidate sessions names the user or one of
/// the listed sessions. Bounded by the sessions held across all lists.

import type { sessionJson } from '../presenters/presenters.js'

export type SessionJson = ReturnType<typeof sessionJson>

/** Sessions held across all lists (some 600 bytes each): a bound on the memory this may take. */
const MAX_SESSIONS_HELD = 20_000

export type ListedSession = {
  /** The entry as answered, `updatedAt` as of `lastActiveMs`. */
  readonly json: SessionJson
  readonly expiresAtMs: number
  /** The session's own last change (start, slide), without its uses. */
  readonly changedMs: number
  /** The later of its own change and its last use recorded in the table. */
  readonly lastActiveMs: number
}

export type SessionList = {
  /** Newest first. */
  readonly sessions: readonly ListedSession[]
  /**
   * When the last uses were read (`performance.now()`). Uses are not events: other instances'
   * reach this list only by reading the table again (list-sessions.ts).
   */
  readonly lastUsesReadAt: number
}

export type SessionListCache = {
  get(userId: string): SessionList | undefined
  set(userId: string, list: SessionList): void
  evictUser(userId: string): void
  /** Evicts the list that holds this session, if any. */
  evictHolding(sessionId: string): void
}

export const createSessionListCache = (): SessionListCache => {
  const byUser = new Map<string, SessionList>()
  const userBySession = new Map<string, string>()
  let held = 0

  const evictUser = (userId: string) => {
    const list = byUser.get(userId)
    if (!list) return
    byUser.delete(userId)
    held -= list.sessions.length
    for (const session of list.sessions) userBySession.delete(session.json.id)
  }

  return {
    get: (userId) => byUser.get(userId),
    set(userId, list) {
      evictUser(userId)
      if (list.sessions.length > MAX_SESSIONS_HELD) return
      // The lists kept longest ago go first (a Map iterates in insertion order).
      for (const oldest of byUser.keys()) {
        if (held + list.sessions.length <= MAX_SESSIONS_HELD) break
        evictUser(oldest)
      }
      byUser.set(userId, list)
      held += list.sessions.length
      for (const session of list.sessions) userBySession.set(session.json.id, userId)
    },
    evictUser,
    evictHolding(sessionId) {
      const userId = userBySession.get(sessionId)
      if (userId !== undefined) evictUser(userId)
    },
  }
}
