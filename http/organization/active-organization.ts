/// "The organization named in the request, else the session's active one, else refuse": better-auth's
/// rule for every organization route that takes an optional `organizationId`. An empty string names
/// nothing, as in better-auth (`organizationId || activeOrganizationId`).

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { Caller } from '../sessions/caller.js'

export const organizationIdOr = (
  caller: Pick<Caller, 'activeOrganizationId'>,
  named: string | null | undefined,
): string => {
  const organizationId = named || caller.activeOrganizationId
  if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
  return organizationId
}
