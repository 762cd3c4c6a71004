/// How each organization event is sealed, shown and cached (domain/shared/event-declaration.ts).
///
/// - Membership and team-membership events are about the member (`userId`): they appear in the
///   member's own activity feed, and the member's cached sessions go stale when a membership ends
///   (the active organization or team is cleared from all their sessions).
/// - Invitation events are about the invitee, who may have no account yet: their subject is
///   `inviteeSubject`, a key id derived from the invited address (see `inviteeSubjectFor` in
///   command-api/organization), so the address is sealed under a key of the invitee, not of the
///   inviter, and erasing the person who holds that address erases it.
/// - Events about the organization itself are about whoever acted (their ip and user agent are
///   sealed under their key); they show in that person's feed.

import type { EventDeclarations } from '../shared/event-declaration.js'
import { subjectIsDataUser as member } from '../shared/event-declaration.js'
import type { EventMetadata } from '../shared/metadata.js'
import type { OrganizationEvent } from './organization.events.js'
import { commaSeparated } from './organization.upcasters.js'

const actor = (_data: unknown, metadata: EventMetadata): string | null =>
  metadata.actor.type === 'user' ? metadata.actor.userId : null

const invitee = (data: { inviteeSubject: string }): string => data.inviteeSubject

export const ORGANIZATION_EVENT_DECLARATIONS: EventDeclarations<OrganizationEvent> = {
  'organization.created': {
    subject: actor,
    personal: [],
    activity: { details: ({ organizationId, name, slug }) => ({ organizationId, name, slug }) },
    invalidates: 'nothing',
  },
  'organization.updated': {
    subject: actor,
    personal: [],
    activity: { details: ({ organizationId, name, slug }) => ({ organizationId, name, slug }) },
    invalidates: 'nothing',
  },
  'organization.deleted': {
    subject: actor,
    personal: [],
    activity: { details: ({ organizationId, slug }) => ({ organizationId, slug }) },
    invalidates: 'nothing',
  },
  'organization.member-added': {
    subject: member,
    personal: [],
    // The feed shows roles as better-auth's one text, as it did before events carried arrays.
    activity: { details: ({ organizationId, roles }) => ({ organizationId, role: roles.join(',') }) },
    invalidates: 'nothing',
  },
  'organization.member-removed': {
    subject: member,
    personal: [],
    activity: { details: ({ organizationId, reason }) => ({ organizationId, reason }) },
    invalidates: 'subject-sessions',
  },
  'organization.member-role-updated': {
    subject: member,
    personal: [],
    activity: {
      details: (data) => {
        const { organizationId, role, previousRole } = commaSeparated(data)
        return { organizationId, role, previousRole }
      },
    },
    invalidates: 'nothing',
  },
  'organization.invitation-created': {
    subject: invitee,
    personal: ['email'],
    activity: null,
    invalidates: 'nothing',
  },
  'organization.invitation-renewed': {
    subject: invitee,
    personal: [],
    activity: null,
    invalidates: 'nothing',
  },
  'organization.invitation-accepted': {
    subject: invitee,
    personal: [],
    activity: null,
    invalidates: 'nothing',
  },
  'organization.invitation-rejected': {
    subject: invitee,
    personal: [],
    activity: null,
    invalidates: 'nothing',
  },
  'organization.invitation-canceled': {
    subject: invitee,
    personal: [],
    activity: null,
    invalidates: 'nothing',
  },
  'organization.team-created': { subject: actor, personal: [], activity: null, invalidates: 'nothing' },
  'organization.team-updated': { subject: actor, personal: [], activity: null, invalidates: 'nothing' },
  'organization.team-removed': { subject: actor, personal: [], activity: null, invalidates: 'nothing' },
  'organization.team-member-added': { subject: member, personal: [], activity: null, invalidates: 'nothing' },
  'organization.team-member-removed': {
    subject: member,
    personal: [],
    activity: null,
    invalidates: 'subject-sessions',
  },
  'organization.role-created': { subject: actor, personal: [], activity: null, invalidates: 'nothing' },
  'organization.role-updated': { subject: actor, personal: [], activity: null, invalidates: 'nothing' },
  'organization.role-deleted': { subject: actor, personal: [], activity: null, invalidates: 'nothing' },
}
