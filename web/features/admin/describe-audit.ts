import type { AdminAction } from './admin.api.js'
import { describeForOperator } from './describe-for-operator.js'

/// An operator's action as the audit reads it: a sentence around the account acted on
/// ("Banned ‹Bob Baker› for 7 days: spam"), so the page can make the account a link while it exists
/// and say "a deleted account" once it is erased. Never an event name or a raw id.

export type AuditSentence = { before: string; after: string }

const text = (details: Record<string, unknown>, key: string): string | null => {
  const value = details[key]
  return typeof value === 'string' && value !== '' ? value : null
}

const UNITS = [
  { ms: 86_400_000, one: 'day', many: 'days' },
  { ms: 3_600_000, one: 'hour', many: 'hours' },
  { ms: 60_000, one: 'minute', many: 'minutes' },
] as const

/** "7 days", "an hour", "90 minutes": the largest unit that divides the span evenly (to a second). */
export const spanInWords = (ms: number): string => {
  for (const unit of UNITS) {
    const count = Math.round(ms / unit.ms)
    if (count >= 1 && Math.abs(ms - count * unit.ms) < 1000) {
      if (count === 1) return unit.one === 'hour' ? 'an hour' : `a ${unit.one}`
      return `${count} ${unit.many}`
    }
  }
  const minutes = Math.max(1, Math.round(ms / 60_000))
  return minutes === 1 ? 'a minute' : `${minutes} minutes`
}

const forHowLong = (entry: AdminAction): string => {
  const until = text(entry.details, 'expiresAt')
  if (!until) return ''
  const ms = new Date(until).getTime() - new Date(entry.at).getTime()
  return Number.isFinite(ms) && ms > 0 ? ` for ${spanInWords(ms)}` : ''
}

const because = (entry: AdminAction): string => {
  const reason = text(entry.details, 'reason')
  return reason ? `: ${reason}` : ''
}

const ENDINGS: Readonly<Record<string, AuditSentence>> = {
  'revoked-all': { before: 'Signed ', after: ' out everywhere' },
  'sign-out': { before: 'Stopped impersonating ', after: '' },
}

type Describe = (entry: AdminAction) => AuditSentence

const SENTENCES: Readonly<Record<string, Describe>> = {
  'user.registered': () => ({ before: 'Created the account of ', after: '' }),
  'user.profile-updated': ({ details }) => {
    const fields = Array.isArray(details.fields) ? details.fields.map(String) : []
    const names = fields.map((field) => (field === 'image' ? 'picture' : field))
    return {
      before: names.length > 0 ? `Changed the ${names.join(' and ')} of ` : 'Changed the profile of ',
      after: '',
    }
  },
  'user.email-changed': ({ details }) => {
    const to = text(details, 'email')
    return { before: 'Changed the email address of ', after: to ? ` to ${to}` : '' }
  },
  'user.role-set': ({ details }) => {
    const role = text(details, 'role')
    return role
      ? { before: 'Gave ', after: ` the role ${role}` }
      : { before: 'Changed the role of ', after: '' }
  },
  'user.banned': (entry) => ({ before: 'Banned ', after: `${forHowLong(entry)}${because(entry)}` }),
  'user.ban-details-set': (entry) => ({
    before: 'Changed the ban on ',
    after: `${forHowLong(entry) ? `: now${forHowLong(entry)}` : ''}${because(entry)}`,
  }),
  'user.unbanned': () => ({ before: 'Lifted the ban on ', after: '' }),
  'user.password-set': () => ({ before: 'Set a new password for ', after: '' }),
  'user.password-changed': () => ({ before: 'Set a new password for ', after: '' }),
  'user.deleted': () => ({ before: 'Removed ', after: '' }),
  'session.started': (entry) =>
    entry.impersonatedBy || entry.details.bySupport === true
      ? { before: 'Started impersonating ', after: '' }
      : { before: 'Signed in as ', after: '' },
  'session.revoked': ({ details }) => {
    const reason = text(details, 'reason')
    return (reason ? ENDINGS[reason] : undefined) ?? { before: 'Ended a session of ', after: '' }
  },
}

/** The sentence around the account for one audit entry. */
export const describeAudit = (entry: AdminAction): AuditSentence => {
  const known = SENTENCES[entry.action]
  if (known) return known(entry)
  // Done while impersonating: the person's own kind of entry, said of them.
  const said = describeForOperator({ type: entry.action, details: entry.details })
  return { before: `As `, after: `: ${said.charAt(0).toLowerCase()}${said.slice(1)}` }
}
