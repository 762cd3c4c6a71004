/// Everything the layers' routes and use cases need, assembled once by `createTessera`: what the
/// command side needs (`CommandContext`), what the query side needs (`QueryContext`), and the
/// projector. Passed explicitly to each route plugin; there are no hidden singletons.

import type { CommandContext } from '../../command-api/context.js'
import type { ReadYourWrites } from '../../command-api/shared/read-your-writes.js'
import type { Projector } from '../../projections/runner/projector.js'
import type { QueryContext } from '../../query-api/context.js'
import type { Readiness } from '../../query-api/health/readiness.js'

export type AppContext = CommandContext &
  QueryContext & {
    projector: Projector
    /** Shares each request's read-your-writes bound among its commands; the edge answers 503 past it. */
    readYourWrites: ReadYourWrites
    readiness: Readiness
  }
