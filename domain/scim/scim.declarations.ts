/// How each directory-sync event is sealed, shown and cached (domain/shared/event-declaration.ts).
/// A provisioned person's events are about them: their userName and externalId (often their
/// address) are personal, sealed under their key. Credential events are about whoever minted or
/// revoked them; a token's hash is no personal data and is never shown.

import type { EventDeclarations } from '../shared/event-declaration.js'
import { subjectIsDataUser as person } from '../shared/event-declaration.js'
import type { EventMetadata } from '../shared/metadata.js'
import type { ScimConnectionEvent } from './scim-connection.js'
import type { ScimGroupEvent } from './scim-group.js'
import type { ScimUserEvent } from './scim-user.js'

const actor = (_data: unknown, metadata: EventMetadata): string | null =>
  metadata.actor.type === 'user' ? metadata.actor.userId : null

const organization = ({ organizationId }: { organizationId: string }) => ({ organizationId })

export const SCIM_USER_EVENT_DECLARATIONS: EventDeclarations<ScimUserEvent> = {
  'scim.user-provisioned': {
    subject: person,
    personal: ['userName', 'externalId'],
    activity: { details: organization },
    invalidates: 'nothing',
  },
  'scim.user-updated': {
    subject: person,
    personal: ['userName', 'externalId', 'previousUserName', 'previousExternalId'],
    activity: { details: ({ organizationId, attributes }) => ({ organizationId, attributes }) },
    invalidates: 'nothing',
  },
  'scim.user-deactivated': {
    subject: person,
    personal: [],
    activity: { details: organization },
    // Every session of the person ends (and the inline revocation holds while the cache catches up).
    invalidates: 'subject-sessions',
  },
  'scim.user-reactivated': {
    subject: person,
    personal: [],
    activity: { details: organization },
    invalidates: 'nothing',
  },
  'scim.user-deprovisioned': {
    subject: person,
    personal: ['userName', 'externalId'],
    activity: { details: organization },
    invalidates: 'nothing',
  },
}

export const SCIM_CONNECTION_EVENT_DECLARATIONS: EventDeclarations<ScimConnectionEvent> = {
  'scim.credential-issued': {
    subject: actor,
    personal: [],
    activity: { details: ({ organizationId, credentialId }) => ({ organizationId, credentialId }) },
    invalidates: 'nothing',
  },
  'scim.credential-revoked': {
    subject: actor,
    personal: [],
    activity: { details: ({ organizationId, credentialId }) => ({ organizationId, credentialId }) },
    invalidates: 'nothing',
  },
}

/// A group concerns nobody in particular (its name is the organization's, not a person's); it shows
/// in the organization's feed (projections/scim/scim-activity.ts), not in anyone's own activity.
const group = {
  subject: () => null,
  personal: [],
  activity: null,
  invalidates: 'nothing',
} as const

export const SCIM_GROUP_EVENT_DECLARATIONS: EventDeclarations<ScimGroupEvent> = {
  'scim.group-created': group,
  'scim.group-updated': group,
  'scim.group-members-changed': group,
  'scim.group-deleted': group,
}
