/// How magic-link events are sealed and shown (domain/shared/event-declaration.ts). A link is about
/// the person who holds the address: the account it had when the link was asked for, or, with no
/// account yet, the address's own key (erased with whoever holds the address later). The request
/// shows in the account's activity (someone asked for a sign-in link to it); the sign-in the link
/// leads to shows as the session it starts.

import type { EventDeclarations } from '../shared/event-declaration.js'
import type { MagicLinkEvent } from './magic-link.js'

export const MAGIC_LINK_EVENT_DECLARATIONS: EventDeclarations<MagicLinkEvent> = {
  'magic-link.requested': {
    subject: ({ userId, addressSubject }) => userId ?? addressSubject,
    personal: ['email', 'name'],
    activity: { details: ({ email }) => ({ email }) },
    invalidates: 'nothing',
  },
  'magic-link.used': { subject: () => null, personal: [], activity: null, invalidates: 'nothing' },
}
