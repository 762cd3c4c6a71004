/// What deleting an account means for organizations. better-auth leaves an organization ownerless
/// when its only owner deletes their account; Tessera refuses instead (ONLY_OWNER_OF_AN_ORGANIZATION,
/// decided by the user decider from `soleOwnerOf`, resolved here) until another member is made an
/// owner or the organization is deleted. Once the account is gone,
/// each of its memberships ends with an event in its organization's stream (reason
/// `account-deleted`), so the organization's rules (limits, owners) count the member no more. The
/// keys the invitations to the person's address were sealed under are named in `user.deleted`
/// (`alsoErases`) and destroyed in the deletion's own transaction, with the person's key.

import { rolesOf } from '../../domain/organization/permissions.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import type { CommandContext } from '../context.js'
import { inviteeSubjectsToErase, runOrganizationCommand } from './organization-command.js'

export type DepartingMember = {
  userId: string
  organizationIds: string[]
  /** The organizations in which the person is the only owner: `delete-user` refuses while any. */
  soleOwnerOf: string[]
  /** The invitee keys of the person's address, erased with the account (`user.deleted`). */
  inviteeKeys: string[]
}

/** The facts `delete-user` needs about organizations, and what to undo once the person is gone. */
export const beforeAccountDeletion = async (
  ctx: CommandContext,
  userId: string,
): Promise<DepartingMember> => {
  const creatorRole = ctx.config.organization.creatorRole
  const organizations = await ctx.lookups.organizations.listOrganizationsOfUser(userId)
  const soleOwnerOf: string[] = []
  for (const organization of organizations) {
    const { members } = await ctx.lookups.organizations.listMembers(organization.id, { limit: 10_000 })
    const owners = members.filter((member) => rolesOf(member.role).includes(creatorRole))
    if (owners.length === 1 && owners[0]?.user_id === userId) soleOwnerOf.push(organization.id)
  }
  const user = await ctx.lookups.users.byId(userId)
  return {
    userId,
    organizationIds: organizations.map((organization) => organization.id),
    soleOwnerOf,
    inviteeKeys: user ? await inviteeSubjectsToErase(ctx, user.email) : [],
  }
}

export const afterAccountDeletion = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  departing: DepartingMember,
): Promise<void> => {
  // The person's key is gone with the account: these events carry nothing of theirs to seal, not
  // even where the request came from.
  const anonymous = { ...origin, ip: null, userAgent: null }
  for (const organizationId of departing.organizationIds)
    await runOrganizationCommand(
      ctx,
      anonymous,
      organizationId,
      { type: 'remove-deleted-user', userId: departing.userId },
      { type: 'system' },
    )
}
