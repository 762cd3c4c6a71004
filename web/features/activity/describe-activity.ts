import type { ActivityItem } from './activity.api.js'

/// One sentence per kind of event in the person's history, in their terms ("You signed in"),
/// never the event names of the log.

const SENTENCES: Readonly<Record<string, string>> = {
  'user.registered': 'You created your account',
  'session.started': 'You signed in',
  'session.revoked': 'A device was signed out',
  'session.ended': 'You signed out',
  'session.expired': 'A session expired',
  'user.signed-out': 'You signed out',
  'user.email-verified': 'You verified your email address',
  // Sent on sign-up too, without anyone asking: so not "you asked".
  'user.verification-email-requested': 'A link to verify your email address was sent',
  'user.password-changed': 'You changed your password',
  'user.password-set': 'A password was set for your account',
  'user.password-reset': 'You reset your password',
  'user.password-reset-requested': 'You asked for a password reset link',
  'user.email-changed': 'You changed your email address',
  'user.email-change-requested': 'You asked to change your email address',
  'user.email-change-confirmed': 'You confirmed the change of your email address',
  'user.profile-updated': 'You updated your profile',
  'user.deletion-requested': 'You asked to delete your account',
}

const detail = (item: ActivityItem, key: string): string | null => {
  const value = item.details?.[key]
  return typeof value === 'string' && value !== '' ? value : null
}

/** The sentence for an activity entry, with the one detail that makes it useful when present. */
export const describeActivity = (item: ActivityItem): string => {
  const base = SENTENCES[item.type] ?? `Account event: ${item.type}`
  const newEmail = detail(item, 'newEmail') ?? detail(item, 'email')
  if (item.type === 'user.email-changed' && newEmail) return `${base} to ${newEmail}`
  return base
}
