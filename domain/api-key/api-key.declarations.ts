/// API-key events are about the key's owner: they show in the owner's activity (never the hash).
/// The name and metadata are the owner's words, sealed under their key and erased with them.

import type { EventDeclarations } from '../shared/event-declaration.js'
import type { ApiKeyEvent } from './api-key.js'

const owner = (data: { userId: string }) => data.userId

export const API_KEY_EVENT_DECLARATIONS: EventDeclarations<ApiKeyEvent> = {
  'api-key.created': {
    subject: owner,
    personal: ['name', 'metadata'],
    activity: { details: ({ keyId, name, start, expiresAt }) => ({ keyId, name, start, expiresAt }) },
    invalidates: 'nothing',
  },
  'api-key.updated': {
    subject: owner,
    personal: ['changes.name', 'changes.metadata'],
    activity: { details: ({ keyId, changes }) => ({ keyId, fields: Object.keys(changes).sort() }) },
    invalidates: 'nothing',
  },
  'api-key.enabled': {
    subject: owner,
    personal: [],
    activity: { details: ({ keyId }) => ({ keyId }) },
    invalidates: 'nothing',
  },
  'api-key.disabled': {
    subject: owner,
    personal: [],
    activity: { details: ({ keyId }) => ({ keyId }) },
    invalidates: 'nothing',
  },
  'api-key.deleted': {
    subject: owner,
    personal: [],
    activity: { details: ({ keyId, reason }) => ({ keyId, reason }) },
    invalidates: 'nothing',
  },
  'api-key.expired': {
    subject: owner,
    personal: [],
    activity: { details: ({ keyId, expiresAt }) => ({ keyId, expiresAt }) },
    invalidates: 'nothing',
  },
  'api-key.used': {
    subject: owner,
    personal: [],
    activity: { details: ({ keyId, count, from, to }) => ({ keyId, count, from, to }) },
    invalidates: 'nothing',
  },
}
