/// The invitation mail (organization plugin): `organization.invitation-created` and `-renewed` send
/// the invitee a link to `BASE_URL/accept-invitation/<id>` (the portal's page, which shows who
/// invited them to what and lets them sign in or up first). The address comes from the invitations
/// read model, so an invitation that is no longer pending, an organization that is gone, or an
/// invitee whose data was erased gets no mail.

import type { Kysely } from 'kysely'
import { INVITATION_MAIL_EVENT_TYPES } from '../../../domain/organization/organization.events.js'
import type { RecordedEvent } from '../../../infra/event-store/event-store.js'
import { MailDeliveryError } from '../../../infra/mail/mail.js'
import { buildLink, organizationInvitation } from '../../../infra/mail/templates.js'
import type { Database } from '../../database.js'
import {
  findInvitation,
  findMemberWithUser,
  findOrganization,
} from '../../organizations/organizations.repository.js'
import { recordDeadLetter } from './dead-letters.table.js'
import type { DeliveryDependencies, DeliveryOutcome } from './deliver-mail.js'

export const isInvitationMailEventType = (type: string): boolean =>
  INVITATION_MAIL_EVENT_TYPES.some((candidate) => candidate === type)

export const deliverInvitationMail = async (
  db: Kysely<Database>,
  event: RecordedEvent,
  deps: DeliveryDependencies,
): Promise<DeliveryOutcome> => {
  const log = { eventId: event.id, type: event.type }
  const invitationId = (event.data as { invitationId?: unknown }).invitationId
  if (typeof invitationId !== 'string') {
    await recordDeadLetter(db, { eventId: event.id, error: 'the event names no invitation', at: deps.now() })
    return 'dead-lettered'
  }
  const invitation = await findInvitation(db, invitationId)
  const organization = invitation && (await findOrganization(db, invitation.organization_id))
  if (!invitation || !organization || invitation.status !== 'pending' || invitation.email === '') {
    deps.logger.info(log, 'mail skipped: the invitation is no longer pending')
    return 'skipped'
  }
  const inviter = await findMemberWithUser(db, organization.id, invitation.inviter_id)
  // The invited address rides along (the mail goes to it anyway): signing up from the link starts
  // with it filled in.
  const url = buildLink(deps.links.baseUrl, `/accept-invitation/${encodeURIComponent(invitation.id)}`, {
    email: invitation.email,
  })
  const validHours = Math.max(
    1,
    Math.round((invitation.expires_at.getTime() - eventTime(event).getTime()) / 3_600_000),
  )
  const rendered = organizationInvitation({
    inviterName: inviter?.user.name || 'A member',
    inviterEmail: inviter?.user.email ?? organization.name,
    organizationName: organization.name,
    role: invitation.role,
    url,
    validHours,
  })
  try {
    await deps.transport.send({ to: invitation.email, idempotencyKey: event.id, ...rendered })
  } catch (error) {
    if (error instanceof MailDeliveryError && !error.retryable) {
      await recordDeadLetter(db, {
        eventId: event.id,
        error: 'the transport refused the invitation mail',
        at: deps.now(),
      })
      return 'dead-lettered'
    }
    throw error
  }
  deps.logger.info(log, 'mail sent')
  return 'sent'
}

const eventTime = (event: RecordedEvent): Date => {
  const at = new Date(event.metadata.at)
  return Number.isNaN(at.getTime()) ? event.recordedAt : at
}
