/// list-sessions' answer: the caller's own live sessions, newest first, `updatedAt` being "last
/// active" (session-usage.ts). Where this process projects, the list is kept per user in the
/// session cache, evicted by every event declared to invalidate the user's sessions, so a request
/// costs no query; otherwise (or on a miss) one query on the user's index.
///
/// Uses are not events, so the cache cannot hear of them: this process's own show at once (the
/// usage port remembers them), other instances' once the kept last uses are re-read, at most
/// `LAST_USES_MAX_AGE_MS` later (they are recorded only every few minutes anyway).

import type { Kysely } from 'kysely'
import type { Database } from '../../projections/database.js'
import { lastUsesOfSessions } from '../../projections/sessions/session-last-use.js'
import {
  type ListedSessionRow,
  listOwnSessionsOfUser,
} from '../../projections/sessions/sessions.repository.js'
import { sessionJson } from '../presenters/presenters.js'
import type { SessionCache } from './session-cache.js'
import type { ListedSession, SessionJson, SessionList } from './session-list-cache.js'
import type { SessionUsage } from './session-usage.js'

/** How long last uses read from the table are shown before they are read again. */
export const LAST_USES_MAX_AGE_MS = 30_000

/**
 * The answer's entries. While a kept list still answers as it did (nothing expired, no newer use),
 * the same array comes back, so the route can reuse what it serialized from it; never change it.
 */
export type SessionLister = (userId: string, now: Date) => Promise<SessionJson[]>

const listed = (changedMs: number, lastUse: Date | null | undefined, json: SessionJson): ListedSession => {
  const lastActiveMs = Math.max(changedMs, lastUse?.getTime() ?? 0)
  return {
    json: lastActiveMs === changedMs ? json : { ...json, updatedAt: new Date(lastActiveMs).toISOString() },
    expiresAtMs: Date.parse(json.expiresAt),
    changedMs,
    lastActiveMs,
  }
}

// In lists a session's `token` is its id (presenters.ts).
const listedRow = (row: ListedSessionRow): ListedSession => {
  const { last_used_at, ...session } = row
  return listed(session.updated_at.getTime(), last_used_at, sessionJson(session, session.id))
}

const withLastUses = (
  list: SessionList,
  lastUses: ReadonlyMap<string, Date>,
  readAt: number,
): SessionList => ({
  lastUsesReadAt: readAt,
  sessions: list.sessions.map((s) =>
    listed(s.changedMs, lastUses.get(s.json.id), {
      ...s.json,
      updatedAt: new Date(s.changedMs).toISOString(),
    }),
  ),
})

export const createSessionLister = ({
  db,
  cache,
  usage,
  lastUsesMaxAgeMs = LAST_USES_MAX_AGE_MS,
}: {
  db: Kysely<Database>
  cache: SessionCache | null
  usage: SessionUsage
  lastUsesMaxAgeMs?: number
}): SessionLister => {
  const load = async (userId: string): Promise<SessionList> => {
    const generation = cache?.generation() ?? 0
    const readAt = performance.now()
    const list = {
      sessions: (await listOwnSessionsOfUser(db, userId)).map(listedRow),
      lastUsesReadAt: readAt,
    }
    cache?.keepList(userId, list, generation)
    return list
  }

  const withFreshLastUses = async (userId: string, list: SessionList): Promise<SessionList> => {
    const generation = cache?.generation() ?? 0
    const readAt = performance.now()
    const ids = list.sessions.map((s) => s.json.id)
    const fresh = withLastUses(list, await lastUsesOfSessions(db, ids), readAt)
    cache?.keepList(userId, fresh, generation)
    return fresh
  }

  // Concurrent requests of one user share a read, unless something was evicted since it started
  // (it may miss what the eviction was for). Without a cache nothing tells of changes: never shared.
  const reading = new Map<string, { generation: number; list: Promise<SessionList> }>()
  const shared = (userId: string, read: () => Promise<SessionList>): Promise<SessionList> => {
    if (!cache) return read()
    const generation = cache.generation()
    const started = reading.get(userId)
    if (started && started.generation === generation) return started.list
    const list = read().finally(() => {
      if (reading.get(userId)?.list === list) reading.delete(userId)
    })
    reading.set(userId, { generation, list })
    return list
  }

  const current = (userId: string): Promise<SessionList> | SessionList => {
    const kept = cache?.listOf(userId)
    if (!kept) return shared(userId, () => load(userId))
    if (performance.now() - kept.lastUsesReadAt <= lastUsesMaxAgeMs) return kept
    return shared(userId, () => withFreshLastUses(userId, kept))
  }

  // A kept list answers with its entries as kept until one of them expires or is used here again:
  // that answer is built once per list (a changed list is a new object, so it goes with the old).
  const keptAnswers = new WeakMap<SessionList, SessionJson[]>()

  return async (userId, now) => {
    const list = await current(userId)
    const nowMs = now.getTime()
    const answer: SessionJson[] = []
    let asKept = true
    for (const session of list.sessions) {
      if (session.expiresAtMs <= nowMs) {
        asKept = false
        continue
      }
      const recorded = usage.recordedUse(session.json.id)
      if (recorded !== undefined && recorded > session.lastActiveMs) {
        asKept = false
        answer.push({ ...session.json, updatedAt: new Date(recorded).toISOString() })
      } else answer.push(session.json)
    }
    if (!asKept) return answer
    const kept = keptAnswers.get(list)
    if (kept) return kept
    keptAnswers.set(list, answer)
    return answer
  }
}
