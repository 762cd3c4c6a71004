/// How passkey events are sealed and shown (domain/shared/event-declaration.ts). The subject is the
/// owner. The name they give a passkey is personal ("Ada's YubiKey"): sealed, erased with them. The
/// public key, credential id and counter are not secret and say nothing about the person, so they
/// stay readable in the log (the key must verify sign-ins; the credential id is its lookup).

import type { EventDeclarations } from '../shared/event-declaration.js'
import { subjectIsDataUser as subject } from '../shared/event-declaration.js'
import type { PasskeyEvent } from './passkey.js'

export const PASSKEY_EVENT_DECLARATIONS: EventDeclarations<PasskeyEvent> = {
  'passkey.registered': {
    subject,
    personal: ['name'],
    activity: {
      details: ({ passkeyId, name, deviceType, backedUp }) => ({ passkeyId, name, deviceType, backedUp }),
      causedByOwner: true,
    },
    invalidates: 'nothing',
  },
  'passkey.renamed': {
    subject,
    personal: ['name'],
    activity: { details: ({ passkeyId, name }) => ({ passkeyId, name }), causedByOwner: true },
    invalidates: 'nothing',
  },
  'passkey.deleted': {
    subject,
    personal: [],
    activity: { details: ({ passkeyId }) => ({ passkeyId }), causedByOwner: true },
    invalidates: 'nothing',
  },
  // The sign-in it allowed is in the feed already (`session.started` with `amr: ['passkey']`).
  'passkey.used': { subject, personal: [], activity: null, invalidates: 'nothing' },
  // A refused sign-in, maybe by whoever holds a copy of the key: where it came from is what lets the
  // owner tell which device it was.
  'passkey.clone-suspected': {
    subject,
    personal: [],
    activity: {
      details: ({ passkeyId, storedCounter, presentedCounter }) => ({
        passkeyId,
        storedCounter,
        presentedCounter,
      }),
      showsAttemptOrigin: true,
    },
    invalidates: 'nothing',
  },
}
