/// How linked-account events are sealed and shown (domain/shared/event-declaration.ts). The subject
/// is the user; the provider's subject id, the address it gave and every token are personal, so
/// they are sealed under the user's key and erased with it. The activity feed shows which provider
/// was linked or unlinked, never a token; a token refresh is housekeeping and not shown.

import type { EventDeclarations } from '../shared/event-declaration.js'
import { subjectIsDataUser as subject } from '../shared/event-declaration.js'
import type { LinkedAccountEvent } from './linked-accounts.js'

const TOKENS = ['accessToken', 'refreshToken', 'idToken'] as const

export const LINKED_ACCOUNT_EVENT_DECLARATIONS: EventDeclarations<LinkedAccountEvent> = {
  'account.linked': {
    subject,
    personal: ['providerAccountId', 'email', ...TOKENS],
    activity: {
      details: ({ providerId, accountId }) => ({ providerId, accountId }),
      causedByOwner: true,
    },
    invalidates: 'nothing',
  },
  'account.tokens-updated': { subject, personal: [...TOKENS], activity: null, invalidates: 'nothing' },
  'account.unlinked': {
    subject,
    personal: ['providerAccountId'],
    activity: {
      details: ({ providerId, accountId }) => ({ providerId, accountId }),
      causedByOwner: true,
    },
    invalidates: 'nothing',
  },
}
