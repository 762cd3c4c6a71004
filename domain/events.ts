/// Every event type Tessera knows, with its declaration (domain/shared/event-declaration.ts). A new
/// aggregate adds its event union to `KnownEvent` and its declarations here; `handle` accepts only
/// known events, so an undeclared event type fails typecheck rather than slipping by at run time.

import { API_KEY_EVENT_DECLARATIONS } from './api-key/api-key.declarations.js'
import type { ApiKeyEvent } from './api-key/api-key.js'
import { EMAIL_OTP_EVENT_DECLARATIONS } from './email-otp/email-otp.declarations.js'
import type { EmailOtpEvent } from './email-otp/email-otp.js'
import { LINKED_ACCOUNT_EVENT_DECLARATIONS } from './linked-accounts/linked-accounts.declarations.js'
import type { LinkedAccountEvent } from './linked-accounts/linked-accounts.js'
import { MAGIC_LINK_EVENT_DECLARATIONS } from './magic-link/magic-link.declarations.js'
import type { MagicLinkEvent } from './magic-link/magic-link.js'
import type { OAuthClientEvent } from './oauth-provider/oauth-client.js'
import type { OAuthConsentEvent } from './oauth-provider/oauth-consent.js'
import type { OAuthGrantEvent } from './oauth-provider/oauth-grant.js'
import {
  OAUTH_CLIENT_EVENT_DECLARATIONS,
  OAUTH_CONSENT_EVENT_DECLARATIONS,
  OAUTH_GRANT_EVENT_DECLARATIONS,
} from './oauth-provider/oauth-provider.declarations.js'
import { ORGANIZATION_EVENT_DECLARATIONS } from './organization/organization.declarations.js'
import type { OrganizationEvent } from './organization/organization.events.js'
import { ORGANIZATION_EVENT_VERSIONS } from './organization/organization.upcasters.js'
import { PASSKEY_EVENT_DECLARATIONS } from './passkey/passkey.declarations.js'
import type { PasskeyEvent } from './passkey/passkey.js'
import {
  SCIM_CONNECTION_EVENT_DECLARATIONS,
  SCIM_GROUP_EVENT_DECLARATIONS,
  SCIM_USER_EVENT_DECLARATIONS,
} from './scim/scim.declarations.js'
import type { ScimConnectionEvent } from './scim/scim-connection.js'
import type { ScimGroupEvent } from './scim/scim-group.js'
import type { ScimUserEvent } from './scim/scim-user.js'
import { SESSION_EVENT_DECLARATIONS } from './session/session.declarations.js'
import type { SessionEvent } from './session/session.js'
import type { EventDeclaration } from './shared/event-declaration.js'
import type { EventMetadata } from './shared/metadata.js'
import { type EventVersionings, stampWith, upcastWith } from './shared/upcasting.js'
import { SIGNING_KEY_EVENT_DECLARATIONS } from './signing-key/signing-key.declarations.js'
import type { SigningKeyEvent } from './signing-key/signing-key.js'
import { SSO_PROVIDER_EVENT_DECLARATIONS } from './sso/sso.declarations.js'
import type { SsoProviderEvent } from './sso/sso-provider.js'
import { TWO_FACTOR_EVENT_DECLARATIONS } from './two-factor/two-factor.declarations.js'
import type { TwoFactorEvent } from './two-factor/two-factor.events.js'
import { USER_EVENT_DECLARATIONS } from './user/user.declarations.js'
import type { UserEvent } from './user/user.events.js'
import { WEBHOOK_EVENT_DECLARATIONS } from './webhook/webhook.declarations.js'
import type { WebhookEvent } from './webhook/webhook.events.js'

export type KnownEvent =
  | UserEvent
  | SessionEvent
  | SigningKeyEvent
  | OrganizationEvent
  | LinkedAccountEvent
  | ApiKeyEvent
  | TwoFactorEvent
  | PasskeyEvent
  | MagicLinkEvent
  | EmailOtpEvent
  | WebhookEvent
  | OAuthClientEvent
  | OAuthGrantEvent
  | OAuthConsentEvent
  | ScimUserEvent
  | ScimConnectionEvent
  | ScimGroupEvent
  | SsoProviderEvent
export type KnownEventType = KnownEvent['type']

/** A declaration as code that reads any event sees it: data of an unknown shape, paths as text. */
export type AnyEventDeclaration = Omit<EventDeclaration<Record<string, unknown>>, 'personal'> & {
  personal: readonly string[]
}

// Each declaration was checked against its own event's data where it was written; from here on
// they are looked up by the type of an event read from the log.
const DECLARATIONS = new Map(
  Object.entries({
    ...USER_EVENT_DECLARATIONS,
    ...SESSION_EVENT_DECLARATIONS,
    ...SIGNING_KEY_EVENT_DECLARATIONS,
    ...ORGANIZATION_EVENT_DECLARATIONS,
    ...LINKED_ACCOUNT_EVENT_DECLARATIONS,
    ...API_KEY_EVENT_DECLARATIONS,
    ...TWO_FACTOR_EVENT_DECLARATIONS,
    ...PASSKEY_EVENT_DECLARATIONS,
    ...MAGIC_LINK_EVENT_DECLARATIONS,
    ...EMAIL_OTP_EVENT_DECLARATIONS,
    ...WEBHOOK_EVENT_DECLARATIONS,
    ...OAUTH_CLIENT_EVENT_DECLARATIONS,
    ...OAUTH_GRANT_EVENT_DECLARATIONS,
    ...OAUTH_CONSENT_EVENT_DECLARATIONS,
    ...SCIM_USER_EVENT_DECLARATIONS,
    ...SCIM_GROUP_EVENT_DECLARATIONS,
    ...SCIM_CONNECTION_EVENT_DECLARATIONS,
    ...SSO_PROVIDER_EVENT_DECLARATIONS,
  }),
) as unknown as ReadonlyMap<string, AnyEventDeclaration>

/** The declaration of an event type; undefined for a type no aggregate declares. */
export const declarationOf = (type: string): AnyEventDeclaration | undefined => DECLARATIONS.get(type)

export const knownEventTypes = (): readonly string[] => [...DECLARATIONS.keys()]

/** Whose personal data an event holds (see `EventDeclaration.subject`); null for unknown types. */
export const subjectOf = (event: { type: string; data: object; metadata: EventMetadata }): string | null =>
  declarationOf(event.type)?.subject(event.data as Record<string, unknown>, event.metadata) ?? null

/** Every event type past its first version, with the upcasters from each older one (shared/upcasting.ts). */
const VERSIONS: EventVersionings = { ...ORGANIZATION_EVENT_VERSIONS }

/** An event read from the log, in its type's current shape: what every reader is given. */
export const upcastEvent = upcastWith(VERSIONS)

/** An event about to be appended, with its type's current version in its metadata. */
export const stampEventVersion = stampWith(VERSIONS)
