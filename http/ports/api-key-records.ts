/// What the API-key use cases read and count in the API-key read model and its usage counters, as a
/// port on the command context (`CommandContext.lookups.apiKeys`). The repository's functions take
/// the database first; the composition root binds them to it (app/server/command-lookups.ts), so
/// each method here is the repository function of the same name without its `db`.

import type {
  ApiKeyWithUsage,
  BufferedUses,
  UsageLimits,
  VerifiableApiKey,
} from '../../projections/api-keys/api-keys.repository.js'
import type { Bound } from './bound.js'

export type { ApiKeyWithUsage, BufferedUses, UsageLimits, VerifiableApiKey }

type Repository = typeof import('../../projections/api-keys/api-keys.repository.js')

export type ApiKeyRecords = {
  /** The key with its usage, by id; null when there is none. */
  byId: Bound<Repository['findApiKeyById']>
  /** The key with this hash, unless it was deleted, expired or lost its owner. */
  verifiableByHash: Bound<Repository['findVerifiableKey']>
  /** One metered verification, taken by a guarded UPDATE; null when refused. */
  consumeUse: Bound<Repository['consumeUse']>
  usageOf: Bound<Repository['findUsage']>
  takeUsageSummary: Bound<Repository['takeUsageSummary']>
  addBufferedUses: Bound<Repository['addBufferedUses']>
  takeUnrecordedUses: Bound<Repository['takeUnrecordedUses']>
  giveBackUses: Bound<Repository['giveBackUses']>
  sweepRevokedUsage: Bound<Repository['sweepRevokedUsage']>
}
