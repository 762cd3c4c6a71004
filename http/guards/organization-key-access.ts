/// Who may do what with an organization's API keys, as better-auth's api-key plugin checks it for a
/// key whose configuration `references` organizations: a member of the organization whose role
/// grants the `apiKey` action, the creator role (owner by default) always. Shared by the reading
/// routes (list, get) and the commands (create, update, delete).

import { AUTH_ERRORS } from '../../domain/errors.js'
import { type ApiKeyAction, mayManageApiKeys } from '../../domain/organization/permissions.js'
import { customRolesOf, findMember } from '../../projections/organizations/organizations.repository.js'
import type { ReadModels } from '../context.js'

/** Refuses (403) a user who is not a member, or whose role does not grant `action` on API keys. */
export const assertMayManageOrganizationKeys = async (
  ctx: ReadModels,
  userId: string,
  organizationId: string,
  action: ApiKeyAction,
): Promise<void> => {
  const member = await findMember(ctx.db, organizationId, userId)
  if (!member) throw AUTH_ERRORS.error('USER_NOT_MEMBER_OF_ORGANIZATION')
  const { creatorRole, dynamicAccessControl } = ctx.config.organization
  const custom = dynamicAccessControl.enabled ? await customRolesOf(ctx.db, organizationId) : {}
  if (!mayManageApiKeys(member.role, action, creatorRole, custom))
    throw AUTH_ERRORS.error('INSUFFICIENT_API_KEY_PERMISSIONS')
}
