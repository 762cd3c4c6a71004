/// The domain rules of an SSO provider, as `@better-auth/sso` has them for its comma-separated
/// `domain`: one verification token per provider, a TXT record under every domain, each checked in
/// turn and the first one missing named in the refusal. Tessera records each proved domain on its
/// own (a domain kept across an update stays proved) and requires SSO per verified domain.

import { DomainError } from '../shared/errors.js'
import { parseDomains } from './sso-domains.js'
import { SSO_ERRORS } from './sso-errors.js'

/** The provider as these rules see it (sso-provider.ts's active state has it all). */
type ActiveProvider = {
  providerId: string
  organizationId: string
  domain: string
  verifiedDomains: string[]
  ssoRequiredDomains: string[]
  verification: { token: string; expiresAt: string } | null
}

type Ids = { providerId: string; organizationId: string }

/** The events of these rules (part of sso-provider.ts's event union). */
export type SsoDomainEvent =
  | {
      type: 'sso-provider.domain-verification-requested'
      // The token is published in DNS by design: it proves control of the zone, not of an account.
      data: Ids & { domain: string; token: string; expiresAt: string }
    }
  /** One per domain proved (before domains were lists, the provider's only domain). */
  | { type: 'sso-provider.domain-verified'; data: Ids & { domain: string; verifiedAt: string } }
  /** One per domain whose requirement changes. */
  | { type: 'sso-provider.sso-requirement-set'; data: Ids & { domain: string; required: boolean } }

type SsoProviderEvent = SsoDomainEvent

type Commands = {
  'verify-domain': {
    now: string
    /** For each domain still to prove, the TXT records found at `<identifier>.<domain>`. */
    records: Readonly<Record<string, readonly string[]>>
    identifier: string
  }
  'request-domain-verification': { now: string; token: string; expiresAt: string }
  'set-sso-requirement': { now: string; required: boolean; domain: string | null }
}

type Command<T extends keyof Commands> = Commands[T]

/** Whether every domain of the provider is proved (the plugin's `domainVerified`). */
export const allVerified = (provider: Pick<ActiveProvider, 'domain' | 'verifiedDomains'>): boolean =>
  parseDomains(provider.domain).every((domain) => provider.verifiedDomains.includes(domain))

/** The provider's domains still to prove, in their order. */
export const pendingDomains = (provider: Pick<ActiveProvider, 'domain' | 'verifiedDomains'>): string[] =>
  parseDomains(provider.domain).filter((domain) => !provider.verifiedDomains.includes(domain))

const verificationFailed = (domain: string) =>
  new DomainError(
    'DOMAIN_VERIFICATION_FAILED',
    SSO_ERRORS.DOMAIN_VERIFICATION_FAILED.status,
    `Unable to verify domain ownership for ${domain}. Try again later`,
  )

export const verify = (command: Command<'verify-domain'>, provider: ActiveProvider): SsoProviderEvent[] => {
  const pending = pendingDomains(provider)
  if (pending.length === 0) throw SSO_ERRORS.error('DOMAIN_VERIFIED')
  if (command.identifier.length > 63) throw SSO_ERRORS.error('IDENTIFIER_TOO_LONG')
  const verification = provider.verification
  if (!verification || verification.expiresAt <= command.now)
    throw SSO_ERRORS.error('NO_PENDING_VERIFICATION')
  const accepted = [`${command.identifier}=${verification.token}`, verification.token]
  // Every domain still to prove must carry the record: none is recorded unless all are (the plugin's).
  for (const domain of pending) {
    const records = command.records[domain] ?? []
    if (!records.some((record) => accepted.includes(record.trim()))) throw verificationFailed(domain)
  }
  const { providerId, organizationId } = provider
  return pending.map((domain) => ({
    type: 'sso-provider.domain-verified',
    data: { providerId, organizationId, domain, verifiedAt: command.now },
  }))
}

export const requestVerification = (
  command: Command<'request-domain-verification'>,
  provider: ActiveProvider,
): SsoProviderEvent[] => {
  if (allVerified(provider)) throw SSO_ERRORS.error('DOMAIN_VERIFIED')
  // A pending token stays valid: the same one is answered again (the DNS records may be in place).
  if (provider.verification && provider.verification.expiresAt > command.now) return []
  const { providerId, organizationId, domain } = provider
  const { token, expiresAt } = command
  return [
    {
      type: 'sso-provider.domain-verification-requested',
      data: { providerId, organizationId, domain, token, expiresAt },
    },
  ]
}

/** Requires (or stops requiring) SSO for one domain of the provider, or for every one. */
export const requireSso = (
  command: Command<'set-sso-requirement'>,
  provider: ActiveProvider,
): SsoProviderEvent[] => {
  const domains = parseDomains(provider.domain)
  const asked = command.domain?.trim().toLowerCase() ?? null
  if (asked !== null && !domains.includes(asked)) throw SSO_ERRORS.error('SSO_DOMAIN_NOT_FOUND')
  const targets = asked === null ? domains : [asked]
  if (command.required && targets.some((domain) => !provider.verifiedDomains.includes(domain)))
    throw SSO_ERRORS.error('SSO_REQUIREMENT_NEEDS_VERIFIED_DOMAIN')
  const { providerId, organizationId } = provider
  return targets
    .filter((domain) => provider.ssoRequiredDomains.includes(domain) !== command.required)
    .map((domain) => ({
      type: 'sso-provider.sso-requirement-set',
      data: { providerId, organizationId, domain, required: command.required },
    }))
}
