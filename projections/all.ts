/// Every read-model projection, in the order they are applied to each event.

import type { Projection } from './projection.js'
import { sessionsProjection } from './sessions/sessions.projection.js'
import { usersProjection } from './users/users.projection.js'

export const readModelProjections: readonly Projection[] = [usersProjection, sessionsProjection]
