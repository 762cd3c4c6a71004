/// What the organization reading routes take: the query side's ports and the projector whose
/// applied events clear the kept answers (http/organization/organization-cache.ts).

import type { CacheProjector } from '../../../http/organization/organization-cache.js'
import { ANY_ROUTE_ERRORS } from '../../../infra/http/openapi.js'
import type { QueryContext } from '../../context.js'

export type OrganizationQueryContext = QueryContext & { projector: CacheProjector }

/** Every signed-in read may answer these. */
export const SIGNED_IN = [...ANY_ROUTE_ERRORS, 'UNAUTHORIZED'] as const
