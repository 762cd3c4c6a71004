/// What the passkey use cases read of the passkeys read model, and the operational table of
/// outstanding WebAuthn challenges, as a port on the command context (`CommandContext.lookups.passkeys`),
/// implemented over the passkey repositories by the composition root (app/server/command-lookups.ts).

import type { PasskeyChallengeTable } from '../../projections/passkeys/passkey-challenges.js'
import type { PasskeyRow } from '../../projections/passkeys/passkeys.table.js'

/** A registered passkey as the read model holds it (public key, owner, counter). */
export type KnownPasskey = PasskeyRow

/** A challenge waiting for its ceremony's answer, under the SHA-256 of the cookie's token. */
export type PendingChallenge = PasskeyChallengeTable

export type PasskeyLookup = {
  byId(passkeyId: string): Promise<KnownPasskey | undefined>
  byCredentialId(credentialId: string): Promise<KnownPasskey | undefined>
  ofUser(userId: string): Promise<KnownPasskey[]>
  saveChallenge(challenge: PendingChallenge, now: Date): Promise<void>
  /** Deletes and returns the challenge; null when there is none or another request took it. */
  takeChallenge(tokenHash: string): Promise<PendingChallenge | null>
}
