/// The JWT signing keys as the jwks read model holds them (public halves, private halves sealed), as
/// a port on the command context (`CommandContext.lookups.signingKeys`): the key set re-reads them
/// after a rotation. Implemented over the jwks repository by the composition root.

import type { JwkRow } from '../../projections/jwks/jwks.table.js'

export type StoredSigningKey = JwkRow

export type SigningKeyLookup = {
  /** Every key, retired ones included. */
  all(): Promise<StoredSigningKey[]>
}
