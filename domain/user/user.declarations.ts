/// How each user event is sealed, shown in the activity feed and cached (see
/// domain/shared/event-declaration.ts). The subject of every user event is the user themselves.

import { type EventDeclarations, subjectIsDataUser as subject } from '../shared/event-declaration.js'
import type { UserEvent } from './user.events.js'

const nothingShown = () => ({})

/** The data subject a deletion notice's address is sealed under, and its stream once handled. */
export const deletionNoticeSubject = (noticeId: string): string => `deletion-notice-${noticeId}`

export const USER_EVENT_DECLARATIONS: EventDeclarations<UserEvent> = {
  'user.registered': {
    subject,
    personal: ['email', 'name', 'image', 'credential.passwordHash', 'username', 'displayUsername'],
    activity: {
      details: ({ email, emailVerified, username }) => ({
        email,
        emailVerified,
        ...(username !== undefined ? { username } : {}),
      }),
      causedByOwner: true,
    },
    invalidates: 'subject-sessions',
  },
  'user.verification-email-requested': {
    subject,
    personal: ['email'],
    activity: { details: ({ email }) => ({ email }) },
    invalidates: 'subject-sessions',
  },
  'user.email-verified': {
    subject,
    personal: ['email'],
    activity: { details: ({ email }) => ({ email }), causedByOwner: true },
    invalidates: 'subject-sessions',
  },
  'user.password-reset-requested': {
    subject,
    personal: ['email'],
    activity: { details: ({ email }) => ({ email }) },
    invalidates: 'subject-sessions',
  },
  'user.password-reset': {
    subject,
    personal: ['passwordHash'],
    activity: { details: nothingShown, causedByOwner: true },
    invalidates: 'subject-sessions',
  },
  'user.password-changed': {
    subject,
    personal: ['passwordHash'],
    activity: { details: nothingShown },
    invalidates: 'subject-sessions',
  },
  'user.password-set': {
    subject,
    personal: ['passwordHash'],
    activity: { details: nothingShown },
    invalidates: 'subject-sessions',
  },
  'user.password-removed': {
    subject,
    personal: [],
    activity: { details: nothingShown, causedByOwner: true },
    invalidates: 'nothing',
  },
  'user.profile-updated': {
    subject,
    personal: ['name', 'image'],
    activity: {
      details: (data) => ({
        fields: (['name', 'image'] as const).filter((field) => data[field] !== undefined),
      }),
    },
    invalidates: 'subject-sessions',
  },
  'user.username-changed': {
    subject,
    personal: ['username', 'displayUsername', 'previousUsername'],
    activity: {
      details: ({ previousUsername, username, displayUsername }) => ({
        previousUsername,
        username,
        displayUsername,
      }),
    },
    invalidates: 'subject-sessions',
  },
  'user.email-change-requested': {
    subject,
    personal: ['currentEmail', 'newEmail'],
    activity: { details: ({ currentEmail, newEmail }) => ({ currentEmail, newEmail }) },
    invalidates: 'subject-sessions',
  },
  'user.email-change-confirmed': {
    subject,
    personal: ['currentEmail', 'newEmail'],
    activity: { details: ({ newEmail }) => ({ newEmail }), causedByOwner: true },
    invalidates: 'subject-sessions',
  },
  'user.email-changed': {
    subject,
    personal: ['previousEmail', 'email'],
    activity: { details: ({ previousEmail, email }) => ({ previousEmail, email }), causedByOwner: true },
    invalidates: 'subject-sessions',
  },
  'user.deletion-requested': {
    subject,
    personal: ['email'],
    activity: { details: ({ email }) => ({ email }) },
    invalidates: 'subject-sessions',
  },
  // Housekeeping: an expired token was thrown away.
  'user.token-discarded': { subject, personal: [], activity: null, invalidates: 'subject-sessions' },
  // Where the attempt came from is shown though the attempt may be a stranger's (not
  // `causedByOwner`: a wrong password proves nothing about who typed it). Hiding a stranger's
  // address protects someone who did something anyone may do with an address (ask for a reset
  // mail); guessing at another person's password is not that, and the address is exactly what the
  // owner needs to tell their own typo from an attack. It is sealed under the owner's key like all
  // their metadata, and goes with their erasure.
  'user.sign-in-failed': {
    subject,
    personal: [],
    activity: { details: nothingShown, showsAttemptOrigin: true },
    invalidates: 'nothing',
  },
  'user.deleted': {
    subject,
    personal: ['email', 'username'],
    activity: 'forget',
    invalidates: 'subject-sessions',
  },
  // The deleted account's address, under a key of its own that the notice's handling destroys.
  'user.deletion-notice-requested': {
    subject: ({ noticeId }) => deletionNoticeSubject(noticeId),
    personal: ['email', 'name'],
    activity: null,
    invalidates: 'nothing',
  },
  'user.deletion-notice-sent': {
    subject: ({ noticeId }) => deletionNoticeSubject(noticeId),
    personal: [],
    activity: 'forget',
    invalidates: 'nothing',
  },
  // Administration: the actor is the operator (or the system for ADMIN_EMAILS and expiries).
  'user.role-set': {
    subject,
    personal: [],
    activity: {
      details: ({ role, previousRole, grantedBy }) => ({
        role,
        previousRole,
        ...(grantedBy !== undefined ? { grantedBy } : {}),
      }),
    },
    invalidates: 'subject-sessions',
  },
  // The reason an operator wrote is about the person: sealed under their key, gone with them.
  'user.banned': {
    subject,
    personal: ['reason'],
    activity: { details: ({ reason, expiresAt }) => ({ reason, expiresAt }) },
    invalidates: 'subject-sessions',
  },
  'user.ban-details-set': {
    subject,
    personal: ['reason'],
    activity: { details: ({ reason, expiresAt }) => ({ reason, expiresAt }) },
    invalidates: 'subject-sessions',
  },
  'user.unbanned': {
    subject,
    personal: [],
    activity: { details: ({ expired }) => ({ expired }) },
    invalidates: 'subject-sessions',
  },
}
