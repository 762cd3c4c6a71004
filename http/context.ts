/// The parts of a context that the HTTP layer's guards and both APIs' routes share. Each API's own
/// context (command-api/context.ts, query-api/context.ts) holds them, so a guard written here takes
/// either without knowing which side calls it.

import type { Kysely } from 'kysely'
import type { Config } from '../infra/config/config.js'
import type { Database } from '../projections/database.js'
import type { ServerKeyGuards } from './guards/server-key.js'
import type { JwtIssuer } from './ports/jwt-issuer.js'

/** The configuration and the read models, for guards that look a membership up. */
export type ReadModels = { config: Config; db: Kysely<Database> }

/** The server API's guard (server keys from SERVER_KEYS), one per process for its rate limits. */
export type ServerApiPort = { serverApi: ServerKeyGuards }

/** Signs JWTs and publishes their keys; null when `jwt.enabled` is false. */
export type JwtPort = { jwt: JwtIssuer | null }
