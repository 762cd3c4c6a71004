/// Answers presented from the state a command left, in the read models' row shapes (the routes'
/// presenters take rows): a command never reads back the row its own events caused.

import type { ActiveOrganization, Organization } from '../../domain/organization/organization.js'
import type { InvitationRow, MemberRow } from '../../http/ports/organization-lookup.js'

/**
 * What the decision just made or touched: its absence means the decider and this edge disagree on
 * the command's outcome, a defect and never an answer.
 */
export const decided = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`the decision left no ${what}`)
  return value
}

/** The organization the decision left: a command that answers with a row never deletes it. */
export const activeOf = (state: Organization): ActiveOrganization =>
  decided(state.status === 'active' ? state : undefined, 'organization')

export const invitationAnswer = (decision: Organization, invitationId: string): InvitationRow => {
  const state = activeOf(decision)
  const invitation = decided(state.invitations.get(invitationId), `invitation ${invitationId}`)
  return {
    id: invitation.invitationId,
    organization_id: state.organizationId,
    email: invitation.email,
    role: invitation.role,
    status: invitation.status,
    team_id: invitation.teamIds.length > 0 ? invitation.teamIds.join(',') : null,
    inviter_id: invitation.inviterId,
    expires_at: new Date(invitation.expiresAt),
    created_at: new Date(invitation.createdAt),
  }
}

export const memberAnswer = (decision: Organization, memberId: string): MemberRow => {
  const state = activeOf(decision)
  const member = decided(state.members.get(memberId), `member ${memberId}`)
  return {
    id: member.memberId,
    organization_id: state.organizationId,
    user_id: member.userId,
    role: member.role,
    created_at: new Date(member.createdAt),
  }
}
