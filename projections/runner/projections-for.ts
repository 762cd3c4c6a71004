/// Which of a group's projections an event goes to: those that declare its type among the ones they
/// handle, and those that declare none. Worked out once per type, then looked up for every event.

import type { Projection } from '../projection.js'

const routesByGroup = new WeakMap<readonly Projection[], Map<string, readonly Projection[]>>()

/** The projections, in their order, that an event of this type is applied to. */
export const projectionsFor = (projections: readonly Projection[], type: string): readonly Projection[] => {
  let routes = routesByGroup.get(projections)
  if (!routes) {
    routes = new Map()
    routesByGroup.set(projections, routes)
  }
  let handling = routes.get(type)
  if (!handling) {
    handling = projections.filter((projection) => projection.handles?.has(type) ?? true)
    routes.set(type, handling)
  }
  return handling
}
