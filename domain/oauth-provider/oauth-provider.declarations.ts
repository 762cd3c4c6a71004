/// The OpenID provider's events as the rest of Tessera sees them. A client's events are about its
/// owner (nobody for one a backend registered); grants and consents are about the person who gave
/// them, and each shows in their activity with the client and scopes, never a hash.

import type { EventDeclarations } from '../shared/event-declaration.js'
import type { OAuthClientEvent } from './oauth-client.js'
import type { OAuthConsentEvent } from './oauth-consent.js'
import type { OAuthGrantEvent } from './oauth-grant.js'

export const OAUTH_CLIENT_EVENT_DECLARATIONS: EventDeclarations<OAuthClientEvent> = {
  'oauth-client.registered': {
    subject: (data) => data.userId,
    personal: [],
    activity: {
      details: ({ clientId, settings, source }) => ({ clientId, name: settings.name, source }),
    },
    invalidates: 'nothing',
  },
  'oauth-client.updated': {
    subject: (data) => data.userId,
    personal: [],
    activity: { details: ({ clientId, changes }) => ({ clientId, fields: Object.keys(changes).sort() }) },
    invalidates: 'nothing',
  },
  'oauth-client.secret-rotated': {
    subject: (data) => data.userId,
    personal: [],
    activity: { details: ({ clientId }) => ({ clientId }) },
    invalidates: 'nothing',
  },
  'oauth-client.deleted': {
    subject: (data) => data.userId,
    personal: [],
    activity: { details: ({ clientId }) => ({ clientId }) },
    invalidates: 'nothing',
  },
}

export const OAUTH_GRANT_EVENT_DECLARATIONS: EventDeclarations<OAuthGrantEvent> = {
  'oauth-grant.code-issued': {
    subject: (data) => data.userId,
    personal: ['redirectUri'],
    activity: {
      type: () => 'oauth-grant.authorized',
      details: ({ grantId, clientId, scopes }) => ({ grantId, clientId, scopes }),
      causedByOwner: true,
    },
    invalidates: 'nothing',
  },
  'oauth-grant.code-exchanged': {
    subject: (data) => data.userId,
    personal: [],
    activity: {
      type: () => 'oauth-grant.tokens-issued',
      details: ({ grantId, clientId, refreshTokenHash }) => ({
        grantId,
        clientId,
        // Whether the grant can be refreshed (offline access); never the token or its hash.
        offlineAccess: refreshTokenHash !== null,
      }),
    },
    invalidates: 'nothing',
  },
  'oauth-grant.refreshed': {
    subject: (data) => data.userId,
    personal: [],
    activity: { details: ({ grantId, clientId }) => ({ grantId, clientId }) },
    invalidates: 'nothing',
  },
  'oauth-grant.revoked': {
    subject: (data) => data.userId,
    personal: [],
    activity: { details: ({ grantId, clientId, reason }) => ({ grantId, clientId, reason }) },
    invalidates: 'nothing',
  },
}

export const OAUTH_CONSENT_EVENT_DECLARATIONS: EventDeclarations<OAuthConsentEvent> = {
  'oauth-consent.granted': {
    subject: (data) => data.userId,
    personal: [],
    activity: { details: ({ clientId, scopes }) => ({ clientId, scopes }), causedByOwner: true },
    invalidates: 'nothing',
  },
  'oauth-consent.revoked': {
    subject: (data) => data.userId,
    personal: [],
    activity: { details: ({ clientId }) => ({ clientId }) },
    invalidates: 'nothing',
  },
}
