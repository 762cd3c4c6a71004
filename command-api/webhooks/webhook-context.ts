/// What the webhook and event-feed routes need of the application's context.

import type { AdminGuardContext } from '../../http/guards/admin-caller.js'
import type { ServerKeyGuards } from '../../http/guards/server-key.js'
import type { CommandContext } from '../context.js'

export type AppContextForWebhooks = CommandContext & AdminGuardContext & { serverApi: ServerKeyGuards }
