/// API-key events are about the key's owner: they show in the owner's activity (never the hash).
/// The name and metadata are the owner's words, sealed under their key and erased with them. An
/// organization's key has no owner person: its events are about the member who acted (`byUserId`,
/// whose words the name is and whose request it was, so they show in that member's activity), and
/// nobody's when no member did (an expiry, a summary of uses).

import type { EventDeclarations } from '../shared/event-declaration.js'
import type { ApiKeyEvent, ApiKeyRef } from './api-key.js'

const owner = (data: ApiKeyRef): string | null => data.userId ?? data.byUserId ?? null

/** The key, and the organization it belongs to when it is an organization's. */
const keyOf = ({ keyId, organizationId }: ApiKeyRef) =>
  organizationId ? { keyId, organizationId } : { keyId }

export const API_KEY_EVENT_DECLARATIONS: EventDeclarations<ApiKeyEvent> = {
  'api-key.created': {
    subject: owner,
    personal: ['name', 'metadata'],
    activity: {
      details: (data) => ({ ...keyOf(data), name: data.name, start: data.start, expiresAt: data.expiresAt }),
    },
    invalidates: 'nothing',
  },
  'api-key.updated': {
    subject: owner,
    personal: ['changes.name', 'changes.metadata'],
    activity: { details: (data) => ({ ...keyOf(data), fields: Object.keys(data.changes).sort() }) },
    invalidates: 'nothing',
  },
  'api-key.enabled': {
    subject: owner,
    personal: [],
    activity: { details: keyOf },
    invalidates: 'nothing',
  },
  'api-key.disabled': {
    subject: owner,
    personal: [],
    activity: { details: keyOf },
    invalidates: 'nothing',
  },
  'api-key.deleted': {
    subject: owner,
    personal: [],
    activity: { details: (data) => ({ ...keyOf(data), reason: data.reason }) },
    invalidates: 'nothing',
  },
  'api-key.expired': {
    subject: owner,
    personal: [],
    activity: { details: (data) => ({ ...keyOf(data), expiresAt: data.expiresAt }) },
    invalidates: 'nothing',
  },
  'api-key.used': {
    subject: owner,
    personal: [],
    activity: { details: ({ count, from, to, ...ref }) => ({ ...keyOf(ref), count, from, to }) },
    invalidates: 'nothing',
  },
}
