/// Which of a group's projections an event goes to: those that declare its type among the ones they
/// handle, and those that declare none. Worked out once per type, then looked up for every event.

import type { ReadAllOptions } from '../../infra/event-store/event-store.js'
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

const readingByGroup = new WeakMap<readonly Projection[], ReadAllOptions>()

/**
 * How the group's projector reads the log: opening the metadata's personal fields only of the types
 * some projection it applies them to reads them for (`Projection.readsPersonalMetadata`).
 */
export const logReadingFor = (projections: readonly Projection[]): ReadAllOptions => {
  let reading = readingByGroup.get(projections)
  if (!reading) {
    const opens = new Map<string, boolean>()
    const reads = (type: string) =>
      projectionsFor(projections, type).some(
        (projection) => projection.readsPersonalMetadata?.has(type) ?? true,
      )
    const personalMetadataOf = (type: string) => {
      let open = opens.get(type)
      if (open === undefined) {
        open = reads(type)
        opens.set(type, open)
      }
      return open
    }
    reading = { personalMetadataOf }
    readingByGroup.set(projections, reading)
  }
  return reading
}
