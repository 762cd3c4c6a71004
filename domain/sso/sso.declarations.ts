/// How each single sign-on event is sealed, shown and cached (domain/shared/event-declaration.ts).
/// A provider's configuration events are about whoever changed it (its owner or admin), and show in
/// their activity with the provider and organization, never a secret. The secrets event is about the
/// provider itself: its secrets are sealed under the provider's own key and never shown.

import type { EventDeclarations } from '../shared/event-declaration.js'
import type { EventMetadata } from '../shared/metadata.js'
import { type SsoProviderEvent, ssoSecretSubject } from './sso-provider.js'

const actor = (_data: unknown, metadata: EventMetadata): string | null =>
  metadata.actor.type === 'user' ? metadata.actor.userId : null

const provider = ({ providerId, organizationId }: { providerId: string; organizationId: string }) => ({
  providerId,
  organizationId,
})

export const SSO_PROVIDER_EVENT_DECLARATIONS: EventDeclarations<SsoProviderEvent> = {
  'sso-provider.registered': {
    subject: actor,
    personal: [],
    activity: {
      details: ({ providerId, organizationId, domain, oidcConfig }) => ({
        providerId,
        organizationId,
        domain,
        protocol: oidcConfig ? 'oidc' : 'saml',
      }),
    },
    invalidates: 'nothing',
  },
  'sso-provider.secrets-set': {
    subject: ({ providerId }) => ssoSecretSubject(providerId),
    personal: ['clientSecret', 'samlPrivateKey', 'spPrivateKey'],
    activity: null,
    invalidates: 'nothing',
  },
  'sso-provider.updated': {
    subject: actor,
    personal: [],
    activity: {
      details: ({ providerId, organizationId, fields }) => ({ providerId, organizationId, fields }),
    },
    invalidates: 'nothing',
  },
  'sso-provider.deleted': {
    subject: actor,
    personal: [],
    activity: { details: provider },
    invalidates: 'nothing',
  },
  'sso-provider.domain-verification-requested': {
    subject: actor,
    personal: [],
    activity: {
      details: ({ providerId, organizationId, domain }) => ({ providerId, organizationId, domain }),
    },
    invalidates: 'nothing',
  },
  'sso-provider.domain-verified': {
    subject: actor,
    personal: [],
    activity: {
      details: ({ providerId, organizationId, domain }) => ({ providerId, organizationId, domain }),
    },
    invalidates: 'nothing',
  },
  'sso-provider.sso-requirement-set': {
    subject: actor,
    personal: [],
    activity: {
      details: ({ providerId, organizationId, domain, required }) => ({
        providerId,
        organizationId,
        domain,
        required,
      }),
    },
    invalidates: 'nothing',
  },
}
