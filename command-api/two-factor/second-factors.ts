/// Whether a person has a second factor, for `twoFactor.requiredFor` (the admin guard): their
/// two-factor is on, or they have a passkey. Read from the log, so a factor just turned on counts
/// at once and one just turned off stops counting at once.

import type { SecondFactorCheck } from '../../http/guards/admin-caller.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import { loadTwoFactor } from './run-two-factor.js'

/**
 * How many passkeys a person has registered. The passkey feature provides it; the composition
 * root passes null while there is no passkey feature, and then nobody has one.
 */
export type PasskeyCount = (userId: string) => Promise<number>

export const secondFactorsOf = (
  store: Pick<EventStore, 'readStream'>,
  passkeyCount: PasskeyCount | null,
): SecondFactorCheck => ({
  async hasSecondFactor(userId) {
    if ((await loadTwoFactor(store, userId)).enabled) return true
    return passkeyCount !== null && (await passkeyCount(userId)) > 0
  },
})
