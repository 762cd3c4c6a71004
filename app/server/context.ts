/// Everything the layers' routes and use cases need, assembled once by `createTessera`: what the
/// command side needs (`CommandContext`), what the query side needs (`QueryContext`), and the
/// projector. Passed explicitly to each route plugin; there are no hidden singletons.

import type { CommandContext } from '../../command-api/context.js'
import type { Projector } from '../../projections/runner/projector.js'
import type { QueryContext } from '../../query-api/context.js'

export type AppContext = CommandContext & QueryContext & { projector: Projector }
