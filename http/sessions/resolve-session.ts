/// Finds the session behind a request: the token of `Authorization: Bearer` when it holds a good
/// one (it stands for the cookie, as in better-auth's bearer plugin), else the signed cookie's;
/// hashed and looked up in the read model (through the cache when this process projects). The raw
/// token is never stored.

import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import { readBearerToken } from '../../infra/http/bearer-token.js'
import {
  readSessionToken,
  type SessionCookieSettings,
  verifyingSecrets,
} from '../../infra/http/session-cookie.js'
import type { Database } from '../../projections/database.js'
import {
  findSessionByTokenHash,
  type SessionWithUser,
} from '../../projections/sessions/sessions.repository.js'
import { createSessionLister, type SessionLister } from './list-sessions.js'
import type { SessionCache } from './session-cache.js'
import { ignoreSessionUsage, type SessionUsage } from './session-usage.js'

export type FoundSession = SessionWithUser & { token: string }

export type SessionLookup =
  | { status: 'none' }
  | { status: 'expired'; found: FoundSession }
  | { status: 'valid'; found: FoundSession }

export type SessionResolver = {
  cookieSettings: SessionCookieSettings
  tokenFrom(request: FastifyRequest): string | null
  lookup(token: string, now: Date): Promise<SessionLookup>
  /** A request was answered with this valid session: "last active" (session-usage.ts). Never waits. */
  used(found: FoundSession, now: Date): void
  /** A user's own live sessions as list-sessions answers them (list-sessions.ts). */
  sessionsOf: SessionLister
}

export const createSessionResolver = (
  db: Kysely<Database>,
  cookieSettings: SessionCookieSettings,
  cache: SessionCache | null,
  usage: SessionUsage = ignoreSessionUsage,
): SessionResolver => {
  const load = async (tokenHash: string): Promise<SessionWithUser | undefined> => {
    const cached = cache?.get(tokenHash)
    if (cached) return cached
    const generation = cache?.generation() ?? 0
    const loaded = await findSessionByTokenHash(db, tokenHash)
    if (loaded) cache?.set(tokenHash, loaded, generation)
    return loaded
  }

  return {
    cookieSettings,
    tokenFrom: (request) =>
      readBearerToken(request, verifyingSecrets(cookieSettings)) ?? readSessionToken(request, cookieSettings),
    async lookup(token, now) {
      const loaded = await load(sha256Hex(token))
      if (!loaded) return { status: 'none' }
      const found = { ...loaded, token }
      return loaded.session.expires_at.getTime() <= now.getTime()
        ? { status: 'expired', found }
        : { status: 'valid', found }
    },
    used: (found, now) => usage.used(found.session, now),
    sessionsOf: createSessionLister({ db, cache, usage }),
  }
}
