/// How each two-factor event is sealed, shown and cached. The subject is always the person whose
/// factor it is. The TOTP secret is personal: sealed under their key, so erasing them destroys it.
/// Hashes of codes, challenges and devices are not shown to anyone; wrong codes are, with where
/// they came from, so the owner can tell their own typo from a stranger's guess.

import { type EventDeclarations, subjectIsDataUser as subject } from '../shared/event-declaration.js'
import type { TwoFactorEvent } from './two-factor.events.js'

const nothingShown = () => ({})

export const TWO_FACTOR_EVENT_DECLARATIONS: EventDeclarations<TwoFactorEvent> = {
  'two-factor.totp-secret-created': {
    subject,
    personal: ['secret'],
    activity: { details: nothingShown, causedByOwner: true },
    invalidates: 'nothing',
  },
  'two-factor.enabled': {
    subject,
    personal: [],
    activity: { details: ({ method }) => ({ method }), causedByOwner: true },
    invalidates: 'subject-sessions',
  },
  'two-factor.disabled': {
    subject,
    personal: [],
    activity: { details: nothingShown, causedByOwner: true },
    invalidates: 'subject-sessions',
  },
  'two-factor.backup-codes-generated': {
    subject,
    personal: [],
    activity: { details: ({ codeHashes }) => ({ count: codeHashes.length }), causedByOwner: true },
    invalidates: 'nothing',
  },
  'two-factor.code-accepted': {
    subject,
    personal: [],
    activity: { details: ({ method }) => ({ method }), causedByOwner: true },
    invalidates: 'nothing',
  },
  'two-factor.code-refused': {
    subject,
    personal: [],
    activity: {
      details: ({ method, lockedUntil }) => ({ method, ...(lockedUntil ? { lockedUntil } : {}) }),
      showsAttemptOrigin: true,
    },
    invalidates: 'nothing',
  },
  'two-factor.code-mailed': {
    subject,
    personal: [],
    activity: null,
    invalidates: 'nothing',
  },
  'two-factor.challenge-started': {
    subject,
    personal: [],
    activity: null,
    invalidates: 'nothing',
  },
  'two-factor.challenge-passed': {
    subject,
    personal: [],
    activity: null,
    invalidates: 'nothing',
  },
  'two-factor.device-trusted': {
    subject,
    personal: [],
    activity: { details: ({ expiresAt }) => ({ expiresAt }), causedByOwner: true },
    invalidates: 'nothing',
  },
  'two-factor.device-trust-renewed': {
    subject,
    personal: [],
    activity: null,
    invalidates: 'nothing',
  },
  'two-factor.trusted-devices-forgotten': {
    subject,
    personal: [],
    activity: { details: ({ reason }) => ({ reason }) },
    invalidates: 'nothing',
  },
}
