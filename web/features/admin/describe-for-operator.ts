import { formatTime } from '../../app/time.js'
import { placeName } from '../sessions/place.js'
import { signInMethodsOf } from '../sessions/sign-in-methods.js'
import { describeUserAgent } from '../sessions/user-agent.js'

/// A user's history as an operator reads it: third person, in words ("Signed in from Firefox on
/// Windows", "Banned: spam"), never the log's event names, except for a type this list does not
/// know yet (a newer server), which is shown as it is rather than hidden.

export type HistoryEntry = {
  type: string
  details: Record<string, unknown>
  userAgent?: string | null
}

/** Organization names by id, from what the page knows; an organization gone since shows its slug. */
export type OrganizationNames = ReadonlyMap<string, string>

const text = (details: Record<string, unknown>, key: string): string | null => {
  const value = details[key]
  return typeof value === 'string' && value !== '' ? value : null
}

const placeOf = (details: Record<string, unknown>): string | null => {
  const place = details.place
  if (typeof place !== 'object' || place === null) return null
  const { country, city } = place as Record<string, unknown>
  return placeName({
    country: typeof country === 'string' ? country : null,
    city: typeof city === 'string' ? city : null,
  })
}

const device = (userAgent: string | null | undefined): string | null =>
  userAgent ? describeUserAgent(userAgent) : null

const withDetail = (base: string, detail: string | null, joiner = ': '): string =>
  detail ? `${base}${joiner}${detail}` : base

const SESSION_ENDINGS: Readonly<Record<string, string>> = {
  revoked: 'Signed out a session',
  'revoked-others': 'Signed out their other sessions',
  'revoked-all': 'Every session was ended',
  'password-reset': 'The password reset ended a session',
  'signed-in-again': 'Signed in again, ending the older session',
  'sign-out': 'Signed out',
}

const KEY_DELETIONS: Readonly<Record<string, string>> = {
  deleted: 'Deleted an API key',
  'usage-exhausted': 'An API key was used up and deleted',
}

type Describe = (entry: HistoryEntry, organizations: OrganizationNames) => string

const organizationOf = ({ details }: HistoryEntry, organizations: OrganizationNames): string => {
  const id = text(details, 'organizationId')
  return (
    (id ? organizations.get(id) : undefined) ??
    text(details, 'name') ??
    text(details, 'slug') ??
    'an organization'
  )
}

const keyName = ({ details }: HistoryEntry): string => {
  const name = text(details, 'name')
  return name ? `the API key “${name}”` : 'an API key'
}

/** Every kind of entry the history shows (the activity declarations in domain/*), in words. */
export const OPERATOR_SENTENCES: Readonly<Record<string, Describe>> = {
  'user.registered': ({ details }) => withDetail('Signed up', text(details, 'email'), ' as '),
  'user.verification-email-requested': ({ details }) =>
    withDetail('A verification link was sent', text(details, 'email'), ' to '),
  'user.email-verified': ({ details }) =>
    withDetail('Verified the email address', text(details, 'email'), ' '),
  'user.password-reset-requested': ({ details }) =>
    withDetail('A password reset link was requested', text(details, 'email'), ' for '),
  'user.password-reset': () => 'Reset the password with a mailed link',
  'user.password-changed': () => 'Password changed',
  'user.password-set': () => 'A password was set',
  'user.password-removed': () => 'Removed the password: signs in with a linked provider only',
  'user.profile-updated': ({ details }) => {
    const fields = Array.isArray(details.fields) ? details.fields.map(String) : []
    const names = fields.map((field) => (field === 'image' ? 'picture' : field))
    return names.length > 0 ? `Changed their ${names.join(' and ')}` : 'Updated the profile'
  },
  'user.username-changed': ({ details }) =>
    withDetail('Username changed', text(details, 'displayUsername') ?? text(details, 'username'), ' to '),
  'user.email-change-requested': ({ details }) =>
    withDetail('Asked to change the email address', text(details, 'newEmail'), ' to '),
  'user.email-change-confirmed': ({ details }) =>
    withDetail('Approved the change of email address', text(details, 'newEmail'), ' to '),
  'user.email-changed': ({ details }) => {
    const from = text(details, 'previousEmail')
    const to = text(details, 'email')
    if (from && to) return `Email address changed from ${from} to ${to}`
    return withDetail('Email address changed', to, ' to ')
  },
  'user.deletion-requested': () => 'Asked to delete the account',
  'user.sign-in-failed': () => 'A sign-in failed: wrong password',
  'user.role-set': ({ details }) => {
    const role = text(details, 'role')
    const previous = text(details, 'previousRole')
    if (!role) return 'Role changed'
    return previous ? `Role set to ${role} (was ${previous})` : `Role set to ${role}`
  },
  'user.banned': ({ details }) => {
    const until = text(details, 'expiresAt')
    const base = withDetail('Banned by an operator', text(details, 'reason'), ': reason ')
    return until ? `${base}, until ${formatTime(until)}` : base
  },
  'user.ban-details-set': ({ details }) => {
    const until = text(details, 'expiresAt')
    const base = withDetail('Ban details set by an operator', text(details, 'reason'), ': reason ')
    return until ? `${base}, until ${formatTime(until)}` : base
  },
  'user.unbanned': ({ details }) =>
    details.expired === true ? 'The ban ran out' : 'Ban lifted by an operator',
  'user.signed-out': ({ details, userAgent }) => {
    const where = device(text(details, 'userAgent') ?? userAgent)
    return withDetail('Signed out', where, ' of ')
  },
  'session.started': ({ details, userAgent }) => {
    const from = device(userAgent)
    const place = placeOf(details)
    const methods = Array.isArray(details.amr) ? signInMethodsOf(details.amr.map(String)) : null
    const base =
      details.bySupport === true
        ? 'Support signed in as this person'
        : methods
          ? `Signed in with ${methods}`
          : 'Signed in'
    return `${withDetail(base, from, ' from ')}${place ? ` in ${place}` : ''}`
  },
  'session.revoked': ({ details }) => {
    const reason = text(details, 'reason')
    const base = (reason ? SESSION_ENDINGS[reason] : undefined) ?? 'A session was ended'
    const where = device(text(details, 'userAgent'))
    const place = placeOf(details)
    return `${withDetail(base, where, ' on ')}${place ? ` in ${place}` : ''}`
  },
  'session.expired': () => 'A session expired',
  'account.linked': ({ details }) => withDetail('Linked a sign-in provider', text(details, 'providerId')),
  'account.unlinked': ({ details }) => withDetail('Unlinked a sign-in provider', text(details, 'providerId')),
  'organization.created': (entry, names) => `Created the organization ${organizationOf(entry, names)}`,
  'organization.updated': (entry, names) => `Updated the organization ${organizationOf(entry, names)}`,
  'organization.deleted': (entry, names) => `Deleted the organization ${organizationOf(entry, names)}`,
  'organization.member-added': (entry, names) =>
    withDetail(`Added to ${organizationOf(entry, names)}`, text(entry.details, 'role'), ' as '),
  'organization.member-removed': (entry, names) => {
    const organization = organizationOf(entry, names)
    switch (text(entry.details, 'reason')) {
      case 'left':
        return `Left ${organization}`
      case 'organization-deleted':
        return `Left ${organization} when it was deleted`
      case 'account-deleted':
        return `Left ${organization} with the account's deletion`
      default:
        return `Removed from ${organization}`
    }
  },
  'organization.member-role-updated': (entry, names) => {
    const role = text(entry.details, 'role')
    const previous = text(entry.details, 'previousRole')
    const base = withDetail(`Role in ${organizationOf(entry, names)} changed`, role, ' to ')
    return role && previous ? `${base} (was ${previous})` : base
  },
  'api-key.created': (entry) => `Created ${keyName(entry)}`,
  'api-key.updated': ({ details }) => {
    const fields = Array.isArray(details.fields) ? details.fields.map(String) : []
    return withDetail('Changed an API key', fields.join(', '))
  },
  'api-key.enabled': () => 'Enabled an API key',
  'api-key.disabled': () => 'Disabled an API key',
  'api-key.deleted': ({ details }) => {
    const reason = text(details, 'reason')
    return (reason ? KEY_DELETIONS[reason] : undefined) ?? 'Deleted an API key'
  },
  'api-key.expired': () => 'An API key expired',
  'api-key.used': ({ details }) =>
    typeof details.count === 'number'
      ? `An API key was used ${details.count} ${details.count === 1 ? 'time' : 'times'}`
      : 'An API key was used',
  'two-factor.totp-secret-created': () => 'Started setting up an authenticator app',
  'two-factor.enabled': ({ details }) =>
    text(details, 'method') === 'otp' ? 'Turned on two-factor (mailed codes)' : 'Turned on two-factor',
  'two-factor.disabled': () => 'Turned off two-factor',
  'two-factor.backup-codes-generated': () => 'Made new backup codes',
  'two-factor.code-accepted': ({ details }) =>
    text(details, 'method') === 'backup-code' ? 'Used a backup code' : 'Passed the second step',
  'two-factor.code-refused': ({ details }) =>
    text(details, 'lockedUntil') ? 'Wrong two-factor code: second step locked' : 'Wrong two-factor code',
  'two-factor.device-trusted': () => 'Trusted a device for two-factor',
  'two-factor.trusted-devices-forgotten': ({ details }) =>
    withDetail('Trusted devices forgotten', text(details, 'reason'), ': '),
  'passkey.registered': ({ details }) => withDetail('Added a passkey', text(details, 'name')),
  'passkey.renamed': ({ details }) => withDetail('Renamed a passkey', text(details, 'name')),
  'passkey.deleted': () => 'Removed a passkey',
  'oauth-client.registered': () => 'Registered an application (OpenID client)',
  'oauth-client.updated': () => 'Changed an application’s settings',
  'oauth-client.secret-rotated': () => 'Gave an application a new secret',
  'oauth-client.deleted': () => 'Removed an application',
  'oauth-grant.authorized': () => 'Let an application sign them in',
  'oauth-grant.code-issued': () => 'Let an application sign them in',
  'oauth-grant.code-exchanged': () => 'Signed in to an application',
  'oauth-grant.tokens-issued': () => 'Signed in to an application',
  'oauth-grant.refreshed': () => 'An application renewed its access',
  'oauth-grant.revoked': () => 'An application’s access ended',
  'oauth-consent.granted': () => 'Allowed an application',
  'oauth-consent.revoked': () => 'Took back an application’s access',
  'passkey.clone-suspected': () =>
    'A passkey sign-in was refused: its counter went backwards (possible clone)',
  'magic-link.requested': ({ details }) =>
    withDetail('A sign-in link was mailed', text(details, 'email'), ' to '),
  'email-otp.code-issued': ({ details }) => {
    const purpose = text(details, 'otpType')
    const sent = purpose ? `A ${purpose} code was mailed` : 'A one-time code was mailed'
    return withDetail(sent, text(details, 'email'), ' to ')
  },
  'scim.user-provisioned': () => 'Provisioned by a directory (SCIM)',
  'scim.user-updated': () => 'Updated by a directory (SCIM)',
  'scim.user-deactivated': () => 'Deactivated by a directory (SCIM)',
  'scim.user-reactivated': () => 'Reactivated by a directory (SCIM)',
  'scim.user-deprovisioned': () => 'Removed by a directory (SCIM)',
  'scim.credential-issued': () => 'Created a directory sync (SCIM) token',
  'scim.credential-revoked': () => 'Revoked a directory sync (SCIM) token',
  'sso-provider.registered': () => 'Added a single sign-on provider',
  'sso-provider.updated': () => 'Changed a single sign-on provider',
  'sso-provider.deleted': () => 'Removed a single sign-on provider',
  'sso-provider.domain-verification-requested': () => 'Asked to verify a single sign-on domain',
  'sso-provider.domain-verified': () => 'Verified a single sign-on domain',
  'sso-provider.sso-requirement-set': () => 'Changed whether single sign-on is required',
}

/** The operator's sentence for one history entry; an unknown type shows as it is. */
export const describeForOperator = (
  entry: HistoryEntry,
  organizations: OrganizationNames = new Map(),
): string => OPERATOR_SENTENCES[entry.type]?.(entry, organizations) ?? entry.type
