/// The ports the reading routes work with, passed in by the composition root (app/). A read that
/// has a side effect (get-session sliding a session's expiry, or ending an expired one) reaches the
/// command side only through `sessionUpkeep`, so this layer never imports command-api.

import type { Kysely } from 'kysely'
import type { RequestOrigin } from '../domain/shared/metadata.js'
import type { Config } from '../infra/config/config.js'
import type { Database } from '../projections/database.js'
import type { SessionRow } from '../projections/sessions/sessions.table.js'
import type { SecondFactorCheck } from './admin/admin-caller.js'
import type { ApiKeySessionPort } from './api-key/api-key-session-port.js'
import type { JwtIssuer } from './jwt/jwt-issuer.js'
import type { ServerKeyGuards } from './server-api/server-key.js'
import type { FoundSession, SessionResolver } from './sessions/resolve-session.js'

export type SessionUpkeep = {
  /** Extends a session past the update age; the new row, or null when nothing changed. */
  refresh(found: FoundSession, origin: RequestOrigin): Promise<SessionRow | null>
  expire(sessionId: string, origin: RequestOrigin): Promise<void>
}

export type QueryContext = {
  config: Config
  db: Kysely<Database>
  sessions: SessionResolver
  sessionUpkeep: SessionUpkeep
  clock: () => Date
  /** Signs JWTs and publishes their keys; null when `jwt.enabled` is false. */
  jwt: JwtIssuer | null
  /** The server API's guard (server keys from SERVER_KEYS), one per process for its rate limits. */
  serverApi: ServerKeyGuards
  /** get-session from `x-api-key` (apiKey.enableSessionForAPIKeys); null when off. */
  apiKeySessions: ApiKeySessionPort | null
  /** Whether a person has a second factor, for `twoFactor.requiredFor` (admin/admin-caller.ts). */
  secondFactors?: SecondFactorCheck
}
