import { placeName } from '../sessions/place.js'
import { describeUserAgent } from '../sessions/user-agent.js'
import type { ActivityItem } from './activity.api.js'

/// One sentence per kind of event in the person's history, in their terms ("You signed in"),
/// never the event names of the log.

const SENTENCES: Readonly<Record<string, string>> = {
  'user.registered': 'You created your account',
  'session.started': 'You signed in',
  'session.revoked': 'You signed out another device',
  'session.ended': 'You signed out',
  'session.expired': 'A session expired',
  'user.signed-out': 'You signed out',
  // Recorded after a wrong password for an existing account, at most once a minute.
  'user.sign-in-failed': 'Someone tried to sign in with a wrong password',
  'user.email-verified': 'You verified your email address',
  // Sent on sign-up too, without anyone asking: so not "you asked".
  'user.verification-email-requested': 'A link to verify your email address was sent',
  'user.password-changed': 'You changed your password',
  'user.password-set': 'A password was set for your account',
  'user.password-removed': 'You removed your password: you sign in with a connected service',
  'user.password-reset': 'You reset your password',
  'user.password-reset-requested': 'A password reset link was requested',
  'user.email-changed': 'You changed your email address',
  'user.email-change-requested': 'You asked to change your email address',
  'user.email-change-confirmed': 'You approved the change of your email address',
  'user.profile-updated': 'You updated your profile',
  'user.deletion-requested': 'You asked to delete your account',
  'account.linked': 'You connected a sign-in service',
  'account.unlinked': 'You disconnected a sign-in service',
  'user.username-changed': 'You changed your username',
  // Done by an operator (or ADMIN_EMAILS), never by the person.
  'user.role-set': 'Your role was changed',
  'user.banned': 'Your account was suspended',
  'user.ban-details-set': 'The details of a suspension of your account were changed',
  'user.unbanned': 'The suspension of your account was lifted',
  'organization.created': 'You created an organization',
  'organization.updated': 'You updated an organization',
  'organization.deleted': 'You deleted an organization',
  'organization.member-added': 'You joined an organization',
  'organization.member-removed': 'You were removed from an organization',
  'organization.member-role-updated': 'Your role in an organization was changed',
  'api-key.created': 'You created an API key',
  'api-key.updated': 'You changed an API key',
  'api-key.enabled': 'An API key was enabled',
  'api-key.disabled': 'An API key was disabled',
  'api-key.deleted': 'An API key was deleted',
  'api-key.expired': 'An API key expired',
  'api-key.used': 'An API key was used',
  'two-factor.totp-secret-created': 'You started setting up an authenticator app',
  'two-factor.enabled': 'You turned on two-factor authentication',
  'two-factor.disabled': 'You turned off two-factor authentication',
  'two-factor.backup-codes-generated': 'You made new backup codes',
  'two-factor.code-accepted': 'You confirmed a sign-in with your second factor',
  // Maybe a stranger who knows the password: the entry shows where the attempt came from.
  'two-factor.code-refused': 'A wrong two-factor code was entered',
  'two-factor.device-trusted': 'You chose to trust a device for two-factor sign-in',
  'two-factor.trusted-devices-forgotten': 'Your trusted devices were forgotten',
  'passkey.registered': 'You added a passkey',
  'passkey.renamed': 'You renamed a passkey',
  'passkey.deleted': 'You removed a passkey',
  // Tessera as an OpenID provider: applications you (or an operator) registered, and your grants.
  'oauth-client.registered': 'An application was registered',
  'oauth-client.updated': 'An application’s settings were changed',
  'oauth-client.secret-rotated': 'An application got a new secret',
  'oauth-client.deleted': 'An application was removed',
  'oauth-grant.authorized': 'You let an application sign you in',
  'oauth-grant.code-issued': 'You let an application sign you in',
  'oauth-grant.code-exchanged': 'An application signed you in',
  'oauth-grant.tokens-issued': 'An application signed you in',
  'oauth-grant.refreshed': 'An application renewed its access to your account',
  'oauth-grant.revoked': 'An application’s access to your account ended',
  'oauth-consent.granted': 'You allowed an application to use your account',
  'oauth-consent.revoked': 'You took back an application’s access',
  // A correctly signed sign-in whose counter went backwards: maybe a copy of the passkey.
  'passkey.clone-suspected': 'A sign-in with one of your passkeys was refused: it may have been copied',
  // Asked for by whoever typed the address: so not "you asked".
  'magic-link.requested': 'A sign-in link was sent to you',
  'email-otp.code-issued': 'A one-time code was sent to you',
  // Directory sync (SCIM): done by the organization's identity provider, never by the person.
  'scim.user-provisioned': "Your organization's directory created your account",
  'scim.user-updated': "Your organization's directory updated your account",
  'scim.user-deactivated': "Your organization's directory deactivated your account",
  'scim.user-reactivated': "Your organization's directory reactivated your account",
  'scim.user-deprovisioned': "Your organization's directory removed you",
  'scim.credential-issued': 'You created a directory sync token',
  'scim.credential-revoked': 'You revoked a directory sync token',
  'sso-provider.registered': 'You added a single sign-on provider',
  'sso-provider.updated': 'You changed a single sign-on provider',
  'sso-provider.deleted': 'You removed a single sign-on provider',
  'sso-provider.domain-verification-requested': 'You asked to verify a single sign-on domain',
  'sso-provider.domain-verified': 'You verified a single sign-on domain',
  'sso-provider.sso-requirement-set': 'You changed whether single sign-on is required',
}

/** How a membership ended, by the reason the server records. */
const MEMBERSHIP_ENDINGS: Readonly<Record<string, string>> = {
  left: 'You left an organization',
  'organization-deleted': 'An organization you belonged to was deleted',
}

const FIELD_NAMES: Readonly<Record<string, string>> = { name: 'name', image: 'picture' }

const detail = (item: ActivityItem, key: string): string | null => {
  const value = item.details?.[key]
  return typeof value === 'string' && value !== '' ? value : null
}

/**
 * Where the entry's session was, when the operator's proxy placed it: a sign-in's own device, or on
 * a revocation the device signed out.
 */
const sessionPlace = (item: ActivityItem): string | null => {
  const place = item.details?.place
  if (typeof place !== 'object' || place === null) return null
  const { country, city } = place as Record<string, unknown>
  return placeName({
    country: typeof country === 'string' ? country : null,
    city: typeof city === 'string' ? city : null,
  })
}

const profileSentence = (item: ActivityItem): string | null => {
  const fields = item.details?.fields
  if (!Array.isArray(fields)) return null
  const names = fields.map((field) => FIELD_NAMES[String(field)]).filter(Boolean)
  if (names.length === 0) return null
  return `You changed your ${names.join(' and ')}`
}

/** The sentence for an activity entry, with the one detail that makes it useful when present. */
export const describeActivity = (item: ActivityItem): string => {
  const base = SENTENCES[item.type] ?? `Account event: ${item.type}`
  switch (item.type) {
    case 'user.email-changed': {
      const newEmail = detail(item, 'email') ?? detail(item, 'newEmail')
      return newEmail ? `${base} to ${newEmail}` : base
    }
    case 'user.email-change-requested': {
      const newEmail = detail(item, 'newEmail')
      return newEmail ? `${base} to ${newEmail}` : base
    }
    case 'user.profile-updated':
      return profileSentence(item) ?? base
    case 'user.username-changed': {
      const username = detail(item, 'displayUsername') ?? detail(item, 'username')
      return username ? `${base} to ${username}` : base
    }
    case 'user.role-set': {
      const role = detail(item, 'role')
      return role ? `${base} to ${role}` : base
    }
    case 'organization.created':
    case 'organization.updated': {
      const name = detail(item, 'name')
      return name ? `${base.replace('an organization', 'the organization')} ${name}` : base
    }
    case 'organization.deleted': {
      const slug = detail(item, 'slug')
      return slug ? `You deleted the organization ${slug}` : base
    }
    case 'organization.member-added':
    case 'organization.member-role-updated': {
      const role = detail(item, 'role')
      return role ? `${base} ${item.type === 'organization.member-added' ? 'as' : 'to'} ${role}` : base
    }
    case 'organization.member-removed':
      return MEMBERSHIP_ENDINGS[detail(item, 'reason') ?? ''] ?? base
    case 'api-key.created': {
      const name = detail(item, 'name')
      return name ? `You created the API key “${name}”` : base
    }
    case 'api-key.deleted':
      return detail(item, 'reason') === 'usage-exhausted' ? 'An API key was used up and deleted' : base
    case 'api-key.used': {
      const count = item.details?.count
      return typeof count === 'number' ? `${base} ${count} ${count === 1 ? 'time' : 'times'}` : base
    }
    case 'two-factor.code-refused':
      return detail(item, 'lockedUntil') ? `${base}: two-factor sign-in is locked for 15 minutes` : base
    case 'two-factor.code-accepted':
      return detail(item, 'method') === 'backup-code' ? 'You signed in with a backup code' : base
    case 'passkey.registered':
    case 'passkey.renamed': {
      const name = detail(item, 'name')
      return name ? `${base}: ${name}` : base
    }
    case 'session.started': {
      const amr: unknown[] = Array.isArray(item.details?.amr) ? item.details.amr : []
      // An organization's identity provider (command-api/sso): `sso:<providerId>`.
      const sso = amr.find((entry): entry is string => typeof entry === 'string' && entry.startsWith('sso:'))
      if (sso) return `You signed in through ${sso.slice(4)} SSO`
      return amr.includes('passkey') ? 'You signed in with a passkey' : base
    }
    case 'user.unbanned':
      return item.details?.expired === true ? 'The suspension of your account ended' : base
    case 'account.linked':
    case 'account.unlinked': {
      const provider = detail(item, 'providerId')
      return provider ? `${base}: ${provider}` : base
    }
    case 'session.revoked': {
      // The signed-out device, when the server records it; the entry's own device did the signing out.
      const device = detail(item, 'userAgent')
      // A reset by mailed link ends every session: nobody signed in did that.
      const signedOut = device ? describeUserAgent(device) : null
      const place = sessionPlace(item)
      const where = place ? ` in ${place}` : ''
      if (detail(item, 'reason') === 'password-reset')
        return `The password reset signed out ${signedOut ?? 'a device'}${where}`
      if (signedOut) return `You signed out ${signedOut}${where}`
      return place ? `You signed out a device${where}` : base
    }
    default:
      return base
  }
}

/**
 * Where the entry happened from, as separate facts (device, place, address); for a revoked session,
 * that it is the device that did it. Empty when nothing is known.
 */
export const placeParts = (item: ActivityItem): string[] => {
  // A revocation's place is the signed-out device's, told in its sentence, not where it came from.
  const located = item.type === 'session.started' ? sessionPlace(item) : null
  const parts = [item.userAgent ? describeUserAgent(item.userAgent) : null, located, item.ip].filter(
    (part): part is string => Boolean(part),
  )
  const [first, ...rest] = parts
  if (first === undefined || item.type !== 'session.revoked') return parts
  return [`From ${first}`, ...rest]
}
