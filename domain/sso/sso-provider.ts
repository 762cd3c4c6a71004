/// An organization's enterprise identity provider (OpenID Connect or SAML 2.0), bound to one or
/// more email domains (a comma-separated `domain`, domain/sso/sso-domains.ts), as `@better-auth/sso`
/// registers it. Stream: `sso-provider-<providerId>`. Its secrets (the
/// OIDC client secret, SAML private keys) travel in an event of their own whose subject is the
/// provider itself, so they are sealed under the provider's own key and outlive whoever registered
/// it. Each domain is proved by a DNS TXT record when the deployment asks for verification
/// (sso-provider.domains.ts); only a verified domain may be required to sign in through the provider.

import type { Decider } from '../shared/decider.js'
import { parseDomains } from './sso-domains.js'
import { SSO_ERRORS } from './sso-errors.js'
import {
  allVerified,
  requestVerification,
  requireSso,
  type SsoDomainEvent,
  verify,
} from './sso-provider.domains.js'
import {
  mayManage,
  type OidcSettings,
  type ProviderSecrets,
  type SamlSettings,
  type SsoManager,
} from './sso-settings.js'

export { allVerified, pendingDomains } from './sso-provider.domains.js'
export * from './sso-settings.js'

export const ssoProviderStream = (providerId: string): string => `sso-provider-${providerId}`
/** The provider as the subject its secrets are sealed under. */
export const ssoSecretSubject = (providerId: string): string => `sso-provider-${providerId}`

/// Events

type Ids = { providerId: string; organizationId: string }
type Shape = {
  issuer: string
  domain: string
  oidcConfig: OidcSettings | null
  samlConfig: SamlSettings | null
}

export type SsoProviderEvent =
  | { type: 'sso-provider.registered'; data: Ids & Shape & { userId: string | null; registeredAt: string } }
  | { type: 'sso-provider.secrets-set'; data: { providerId: string } & ProviderSecrets }
  | {
      type: 'sso-provider.updated'
      data: Ids &
        Shape & {
          fields: string[]
          /** Every domain verified after the change (the plugin's `domainVerified`). */
          domainVerified: boolean
          /** The domains still verified; absent on events written before domains were lists. */
          verifiedDomains?: string[]
          updatedAt: string
        }
    }
  | { type: 'sso-provider.deleted'; data: Ids & { deletedAt: string } }
  | SsoDomainEvent

/// Commands

type Managed = { manager: SsoManager; now: string }

export type RegisterSsoProvider = Managed &
  Shape & {
    type: 'register-sso-provider'
    providerId: string
    organizationId: string
    userId: string | null
    secrets: ProviderSecrets
    /** A built-in or configured social provider's id, which an SSO provider may not take. */
    reserved: boolean
    /** Providers the registrant already registered, and the deployment's limit (0: disabled). */
    registeredByUser: number
    limit: number
    /** Issued at once when the deployment verifies domains. */
    verification: { token: string; expiresAt: string } | null
  }

export type SsoProviderCommand =
  | RegisterSsoProvider
  /**
   * May this person register a provider for the organization at all: asked before the edge fetches
   * the issuer's discovery document, so a stranger's registration never reaches the network. The
   * registration itself is judged again; this records nothing.
   */
  | { type: 'admit-registrant'; manager: SsoManager }
  | (Managed & {
      type: 'update-sso-provider'
      issuer?: string
      domain?: string
      oidcConfig?: OidcSettings
      samlConfig?: SamlSettings
      secrets?: Partial<ProviderSecrets>
    })
  | (Managed & { type: 'delete-sso-provider' })
  | (Managed & { type: 'request-domain-verification'; token: string; expiresAt: string })
  | (Managed & {
      type: 'verify-domain'
      /** For each domain still to prove, the TXT records found at `<identifier>.<domain>`. */
      records: Readonly<Record<string, readonly string[]>>
      identifier: string
    })
  | (Managed & {
      type: 'set-sso-requirement'
      required: boolean
      /** One of the provider's domains; null: every one of them. */
      domain: string | null
    })

/// State

export type ActiveProvider = Ids &
  Shape & {
    status: 'active'
    userId: string | null
    secrets: ProviderSecrets
    /** The proved domains, a subset of `domain`'s. */
    verifiedDomains: string[]
    verification: { token: string; expiresAt: string } | null
    /** The verified domains whose people must sign in through this provider. */
    ssoRequiredDomains: string[]
  }

const without = (list: readonly string[], gone: readonly string[]) => list.filter((x) => !gone.includes(x))
const adding = (list: readonly string[], more: readonly string[]) => [...new Set([...list, ...more])]

export type SsoProvider = { status: 'none' } | ActiveProvider | { status: 'deleted' }

export const initialState = (): SsoProvider => ({ status: 'none' })

const NO_SECRETS: ProviderSecrets = { clientSecret: null, samlPrivateKey: null, spPrivateKey: null }

/// Evolve: no rules, never throws

export const evolve = (state: SsoProvider, event: SsoProviderEvent): SsoProvider => {
  if (event.type === 'sso-provider.registered') {
    const { registeredAt: _at, ...data } = event.data
    return {
      status: 'active',
      ...data,
      secrets: NO_SECRETS,
      verifiedDomains: [],
      verification: null,
      ssoRequiredDomains: [],
    }
  }
  if (state.status !== 'active') return state
  switch (event.type) {
    case 'sso-provider.secrets-set': {
      const { providerId: _id, ...secrets } = event.data
      return { ...state, secrets }
    }
    case 'sso-provider.updated': {
      const { issuer, domain, oidcConfig, samlConfig, domainVerified } = event.data
      const verifiedDomains = event.data.verifiedDomains ?? (domainVerified ? parseDomains(domain) : [])
      return {
        ...state,
        issuer,
        domain,
        oidcConfig,
        samlConfig,
        verifiedDomains,
        ssoRequiredDomains: state.ssoRequiredDomains.filter((kept) => verifiedDomains.includes(kept)),
        ...(domain !== state.domain ? { verification: null } : {}),
      }
    }
    case 'sso-provider.deleted':
      return { status: 'deleted' }
    case 'sso-provider.domain-verification-requested':
      return { ...state, verification: { token: event.data.token, expiresAt: event.data.expiresAt } }
    case 'sso-provider.domain-verified': {
      const next = {
        ...state,
        verifiedDomains: adding(state.verifiedDomains, parseDomains(event.data.domain)),
      }
      return allVerified(next) ? { ...next, verification: null } : next
    }
    case 'sso-provider.sso-requirement-set': {
      const domains = parseDomains(event.data.domain)
      const { ssoRequiredDomains } = state
      return {
        ...state,
        ssoRequiredDomains: event.data.required
          ? adding(ssoRequiredDomains, domains)
          : without(ssoRequiredDomains, domains),
      }
    }
  }
}

/// Decide: every rule

/** Only an owner or admin of the organization (or an operator) registers its providers. */
const refuseNonRegistrant = (manager: SsoManager): void => {
  if (manager.kind === 'stranger') throw SSO_ERRORS.error('NOT_A_MEMBER_OF_THE_ORGANIZATION')
  if (!mayManage(manager)) throw SSO_ERRORS.error('NOT_ALLOWED_TO_REGISTER_SSO_PROVIDER')
}

const register = (command: RegisterSsoProvider, state: SsoProvider): SsoProviderEvent[] => {
  if (command.limit === 0) throw SSO_ERRORS.error('SSO_PROVIDER_REGISTRATION_DISABLED')
  if (command.registeredByUser >= command.limit) throw SSO_ERRORS.error('SSO_PROVIDER_LIMIT_REACHED')
  refuseNonRegistrant(command.manager)
  if (command.reserved) throw SSO_ERRORS.error('SSO_PROVIDER_ID_RESERVED')
  if (state.status === 'active') throw SSO_ERRORS.error('SSO_PROVIDER_ALREADY_EXISTS')
  if (!command.oidcConfig && !command.samlConfig) throw SSO_ERRORS.error('SSO_CONFIG_REQUIRED')
  if (command.oidcConfig && !command.secrets.clientSecret) throw SSO_ERRORS.error('CLIENT_SECRET_REQUIRED')
  const { providerId, organizationId, userId, issuer, domain, oidcConfig, samlConfig, now } = command
  const ids = { providerId, organizationId }
  const events: SsoProviderEvent[] = [
    {
      type: 'sso-provider.registered',
      data: { ...ids, userId, issuer, domain, oidcConfig, samlConfig, registeredAt: now },
    },
    { type: 'sso-provider.secrets-set', data: { providerId, ...command.secrets } },
  ]
  if (command.verification)
    events.push({
      type: 'sso-provider.domain-verification-requested',
      data: { ...ids, domain, ...command.verification },
    })
  return events
}

/** The provider, when it exists and the caller owns or administers its organization. */
const managed = (command: { manager: SsoManager }, state: SsoProvider): ActiveProvider => {
  if (state.status !== 'active') throw SSO_ERRORS.error('SSO_PROVIDER_NOT_FOUND')
  if (!mayManage(command.manager)) throw SSO_ERRORS.error('NO_ACCESS_TO_SSO_PROVIDER')
  return state
}

type Update = Extract<SsoProviderCommand, { type: 'update-sso-provider' }>

const update = (command: Update, provider: ActiveProvider): SsoProviderEvent[] => {
  const fields = (['issuer', 'domain', 'oidcConfig', 'samlConfig'] as const).filter(
    (field) => command[field] !== undefined,
  )
  if (fields.length === 0 && !command.secrets) throw SSO_ERRORS.error('NO_FIELDS_TO_UPDATE')
  if (command.oidcConfig && !provider.oidcConfig) throw SSO_ERRORS.error('CANNOT_UPDATE_OIDC_CONFIG')
  if (command.samlConfig && !provider.samlConfig) throw SSO_ERRORS.error('CANNOT_UPDATE_SAML_CONFIG')
  const domain = command.domain ?? provider.domain
  // A domain kept stays proved; a new one has to be proved (and cannot be required until it is).
  const domains = parseDomains(domain)
  const verifiedDomains = provider.verifiedDomains.filter((kept) => domains.includes(kept))
  const domainVerified = domains.every((each) => verifiedDomains.includes(each))
  const { providerId, organizationId } = provider
  const events: SsoProviderEvent[] = [
    {
      type: 'sso-provider.updated',
      data: {
        providerId,
        organizationId,
        issuer: command.issuer ?? provider.issuer,
        domain,
        oidcConfig: command.oidcConfig ?? provider.oidcConfig,
        samlConfig: command.samlConfig ?? provider.samlConfig,
        fields: [...fields, ...Object.keys(command.secrets ?? {})].sort(),
        domainVerified,
        verifiedDomains,
        updatedAt: command.now,
      },
    },
  ]
  if (command.secrets)
    events.push({
      type: 'sso-provider.secrets-set',
      data: { providerId, ...provider.secrets, ...command.secrets },
    })
  return events
}

export const decide = (command: SsoProviderCommand, state: SsoProvider): SsoProviderEvent[] => {
  if (command.type === 'register-sso-provider') return register(command, state)
  if (command.type === 'admit-registrant') {
    refuseNonRegistrant(command.manager)
    return []
  }
  const provider = managed(command, state)
  switch (command.type) {
    case 'update-sso-provider':
      return update(command, provider)
    case 'delete-sso-provider':
      return [
        {
          type: 'sso-provider.deleted',
          data: {
            providerId: provider.providerId,
            organizationId: provider.organizationId,
            deletedAt: command.now,
          },
        },
      ]
    case 'request-domain-verification':
      return requestVerification(command, provider)
    case 'verify-domain':
      return verify(command, provider)
    case 'set-sso-requirement':
      return requireSso(command, provider)
  }
}

export const ssoProviderDecider: Decider<SsoProviderCommand, SsoProviderEvent, SsoProvider> = {
  decide,
  evolve,
  initialState,
}
