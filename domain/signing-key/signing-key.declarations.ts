/// Signing-key events concern nobody in particular: no subject, nothing personal (the private key
/// is sealed under the secret before it reaches the log), nothing in anyone's activity feed.

import type { EventDeclarations } from '../shared/event-declaration.js'
import type { SigningKeyEvent } from './signing-key.js'

const nobody = () => null

export const SIGNING_KEY_EVENT_DECLARATIONS: EventDeclarations<SigningKeyEvent> = {
  'signing-key.created': { subject: nobody, personal: [], activity: null, invalidates: 'nothing' },
  'signing-key.retired': { subject: nobody, personal: [], activity: null, invalidates: 'nothing' },
}
