/// What the organization command routes take: the command side's ports and the server API's guard
/// (add-member). The context is passed as it is, never copied, so a port replaced on it (a test's
/// race) reaches every route.

import type { ServerKeyGuards } from '../../../http/guards/server-key.js'
import type { CacheProjector } from '../../../http/organization/organization-cache.js'
import type { CommandContext } from '../../context.js'

export type OrganizationRoutesContext = CommandContext & {
  serverApi: ServerKeyGuards
  projector: CacheProjector
}
