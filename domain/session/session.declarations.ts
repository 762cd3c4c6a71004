/// How each session event is sealed, shown in the activity feed and cached (see
/// domain/shared/event-declaration.ts). A session's subject is the user it belongs to.

import type { EventDeclarations } from '../shared/event-declaration.js'
import { subjectIsDataUser as subject } from '../shared/event-declaration.js'
import type { EventMetadata } from '../shared/metadata.js'
import type { SessionEvent } from './session.js'

/** The feed's name for a revocation the owner asked for by signing out ("You signed out"). */
export const SIGNED_OUT = 'user.signed-out'

/**
 * `session.refreshed` names no user (its events in the log predate that field), but only the
 * session's own user can slide it: the actor is the subject.
 */
const actingUser = (_data: unknown, metadata: EventMetadata): string | null =>
  metadata.actor.type === 'user' ? metadata.actor.userId : null

export const SESSION_EVENT_DECLARATIONS: EventDeclarations<SessionEvent> = {
  'session.started': {
    subject,
    personal: ['ipAddress', 'userAgent', 'place'],
    activity: {
      // A session an operator opened as the user reads as support acting on their behalf.
      details: ({ sessionId, rememberMe, impersonatedBy, place, amr }) => ({
        sessionId,
        rememberMe,
        // How they signed in, where it was not a password (a passkey).
        ...(amr ? { amr } : {}),
        // Where the device was, when the operator's proxy said so (absent when unknown or erased).
        ...(place ? { place } : {}),
        ...(impersonatedBy !== undefined ? { bySupport: true } : {}),
      }),
      causedByOwner: true,
      // A session remembers the device it started on.
      origin: ({ ipAddress, userAgent }) => ({ ip: ipAddress, userAgent }),
    },
    invalidates: 'session',
  },
  // Housekeeping: a sliding expiry moved.
  'session.refreshed': { subject: actingUser, personal: [], activity: null, invalidates: 'session' },
  'session.revoked': {
    subject,
    personal: [],
    activity: {
      details: ({ sessionId, reason }) => ({ sessionId, reason }),
      // Plus the signed-out session's own `userAgent`, `ip` and `place`, added by the activity
      // projection.
      deviceOfSession: ({ sessionId }) => sessionId,
      // Signing in anew on a device ends that device's older session of the account: to its owner,
      // that session was signed out there, not on "another device".
      type: ({ reason }) =>
        reason === 'sign-out' || reason === 'signed-in-again' ? SIGNED_OUT : 'session.revoked',
    },
    invalidates: 'session',
  },
  'session.expired': {
    subject,
    personal: [],
    activity: { details: ({ sessionId }) => ({ sessionId }) },
    invalidates: 'session',
  },
  // Housekeeping: which organization a session works in.
  'session.active-organization-set': { subject, personal: [], activity: null, invalidates: 'session' },
}
