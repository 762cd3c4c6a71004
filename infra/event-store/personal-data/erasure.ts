/// Forgetting a person: destroy their data key. Every personal field sealed under it, in every
/// event of the immutable log, is unreadable from then on; reads give null and `metadata.erased`.
///
/// Call it only after the user's deletion has been projected: read models then hold nothing of
/// the user, and a replay skips what it can no longer read (see the users projection).

import type { Keyring } from './keyring.js'

export const eraseSubject = (keyring: Keyring, subject: string): Promise<void> => keyring.destroy(subject)
