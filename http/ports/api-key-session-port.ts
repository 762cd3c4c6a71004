/// Sessions from API keys (better-auth's `enableSessionForAPIKeys`, off by default): a request with
/// `x-api-key` and no session is answered by get-session as the key's owner. Verifying the key takes
/// a use and may append events, so the command side implements this port (command-api/api-key/
/// api-key-sessions.ts) and the query side only calls it.

import type { FastifyRequest } from 'fastify'
import type { SessionRow } from '../../projections/sessions/sessions.table.js'
import type { UserRow } from '../../projections/users/users.table.js'

export const API_KEY_HEADER = 'x-api-key'

export type ApiKeySession = { session: SessionRow; user: UserRow; token: string }

export type ApiKeySessionPort = {
  /** null without the header; the key's owner as a session; a DomainError for a refused key. */
  sessionFor(request: FastifyRequest): Promise<ApiKeySession | null>
}
