/// Event versions and upcasters. An event type whose data changes shape gets a new version; events
/// of older versions stay in the log as they were written (it is never rewritten) and are turned
/// into the current shape as they are read, so every reader (evolve, projections, reactors, the
/// public feed) sees one shape only. Declared beside the aggregate's events
/// (`<aggregate>.upcasters.ts`) and gathered in `domain/events.ts`.
///
/// The version of a stored event is `metadata.schemaVersion`, stamped by the event store on append
/// for a type past its first version; an event without it is of version 1.

import type { EventMetadata } from './metadata.js'

/** Turns the data of one version into the data of the next. Pure; never throws on a stored event. */
// biome-ignore lint/suspicious/noExplicitAny: each step is typed where it is declared; here any version goes
export type Upcaster = (data: any) => object

/** The current version of a type is one more than its upcasters: `upcasters[0]` takes 1 to 2, and so on. */
export type EventVersioning = { readonly upcasters: readonly Upcaster[] }

export type EventVersionings = Readonly<Record<string, EventVersioning>>

/** One step, typed from the older data to the newer (the registry holds it untyped). */
export const upcaster = <Older, Newer extends object>(step: (data: Older) => Newer): Upcaster => step

type Readable = { type: string; data: object; metadata: EventMetadata }

export const currentVersionIn = (versionings: EventVersionings, type: string): number =>
  (versionings[type]?.upcasters.length ?? 0) + 1

/** The event in its type's current shape; the same object when it is already current. */
export const upcastWith =
  (versionings: EventVersionings) =>
  <Event extends Readable>(event: Event): Event => {
    const steps = versionings[event.type]?.upcasters ?? []
    const stored = event.metadata.schemaVersion ?? 1
    if (stored > steps.length) return event
    const data = steps.slice(stored - 1).reduce<object>((older, step) => step(older), event.data)
    return { ...event, data, metadata: { ...event.metadata, schemaVersion: steps.length + 1 } }
  }

/** The metadata to store with a new event: its type's current version, when past the first. */
export const stampWith =
  (versionings: EventVersionings) =>
  <Event extends Readable>(event: Event): Event => {
    const version = currentVersionIn(versionings, event.type)
    if (version === 1 || event.metadata.schemaVersion === version) return event
    return { ...event, metadata: { ...event.metadata, schemaVersion: version } }
  }
