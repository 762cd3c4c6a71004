/// Outstanding one-time tokens (password reset, account deletion …) by hash, as a port on the
/// command context (`CommandContext.lookups.oneTimeTokens`), implemented over the one-time-tokens
/// repository by the composition root. Only SHA-256 hashes are ever looked up.

import type {
  OneTimeTokenRow,
  TokenPurpose,
} from '../../projections/one-time-tokens/one-time-tokens.table.js'

export type OutstandingToken = OneTimeTokenRow

export type OneTimeTokenLookup = {
  find(tokenHash: string, purpose: TokenPurpose): Promise<OutstandingToken | undefined>
}
