/// Who may manage an OAuth client. A client belongs to a person (its `userId`), to an organization
/// (its `organizationId`, the plugin's `reference_id`), or to nobody (an operator's or an open
/// registration). Operators manage every client; a person their own; a member of an organization
/// its clients when their role holds the `oauthClient` permission (owners and admins by default).
/// Another organization's clients answer as unknown ones; a member without the permission is
/// refused outright, since they may already see the organization's applications exist.

import { hasPermission, type Statements } from '../organization/permissions.js'
import { oauthError } from './oauth-errors.js'

export type ClientAction = 'create' | 'read' | 'update' | 'delete' | 'rotate'

/** Who asks, as the edge found them. */
export type ClientCaller =
  | { kind: 'operator' }
  | { kind: 'owner'; userId: string }
  | {
      kind: 'member'
      userId: string
      organizationId: string
      role: string
      customRoles: Readonly<Record<string, Statements>>
    }
  | { kind: 'anonymous' }

/** Whose a client is. */
export type ClientOwnership = { userId: string | null; organizationId: string | null }

const notAllowed = () =>
  oauthError('access_denied', "You are not allowed to manage this organization's OAuth clients", 403)

/** Whether the caller's role in its organization holds `action` on OAuth clients. */
const memberMay = (caller: Extract<ClientCaller, { kind: 'member' }>, action: ClientAction): boolean =>
  hasPermission(caller.role, { oauthClient: [action] }, caller.customRoles)

/** Refuses unless `caller` may `action` the clients of `organizationId` (listing, registering). */
export const refuseUnlessMayManageOrganization = (
  caller: ClientCaller,
  organizationId: string,
  action: ClientAction,
): void => {
  if (caller.kind === 'operator') return
  if (caller.kind !== 'member' || caller.organizationId !== organizationId) throw notAllowed()
  if (!memberMay(caller, action)) throw notAllowed()
}

/**
 * Refuses unless `caller` may `action` this client: 404 for a client the caller may not know of
 * (someone else's, another organization's), 403 for a member of its organization without the
 * permission.
 */
export const refuseUnlessMayManageClient = (
  caller: ClientCaller,
  client: ClientOwnership,
  action: ClientAction,
): void => {
  if (caller.kind === 'operator') return
  if (client.organizationId !== null) {
    if (caller.kind !== 'member' || caller.organizationId !== client.organizationId)
      throw oauthError('not_found', 'client not found')
    if (!memberMay(caller, action)) throw notAllowed()
    return
  }
  if (caller.kind === 'owner' && client.userId !== null && client.userId === caller.userId) return
  throw oauthError('not_found', 'client not found')
}
