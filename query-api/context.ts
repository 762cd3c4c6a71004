/// The ports the reading routes work with, passed in by the composition root (app/). A read that
/// has a side effect (get-session sliding a session's expiry, or ending an expired one) reaches the
/// command side only through `sessionUpkeep` (http/ports/session-upkeep.ts), so this layer never
/// imports command-api.

import type { Kysely } from 'kysely'
import type { SecondFactorCheck } from '../http/guards/admin-caller.js'
import type { ServerKeyGuards } from '../http/guards/server-key.js'
import type { ApiKeySessionPort } from '../http/ports/api-key-session-port.js'
import type { JwtIssuer } from '../http/ports/jwt-issuer.js'
import type { SessionUpkeep } from '../http/ports/session-upkeep.js'
import type { SessionResolver } from '../http/sessions/resolve-session.js'
import type { Config } from '../infra/config/config.js'
import type { Database } from '../projections/database.js'

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
