/// What the organization command routes take: the command side's ports, the server API's guard
/// (add-member), and the kept memberships has-permission reads (kept-members.ts).

import type { ServerKeyGuards } from '../../../http/guards/server-key.js'
import type { CacheProjector } from '../../../http/organization/organization-cache.js'
import type { CommandContext } from '../../context.js'
import type { KeptMembers } from '../kept-members.js'

export type OrganizationRoutesContext = CommandContext & {
  serverApi: ServerKeyGuards
  projector: CacheProjector
}

export type OrganizationRouteContext = OrganizationRoutesContext & { members: KeptMembers }
