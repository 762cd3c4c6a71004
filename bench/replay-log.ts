/// The replay bench's log: the pattern a real server recorded (replay-template.ts) copied over and
/// over, each copy a new person with new ids, appended through the event store's own append path
/// (personal data sealed under each new person's key, the inline hooks run) in batches, not through
/// HTTP, so a million events are written in minutes instead of hours of password hashing.

import { randomUUID } from 'node:crypto'
import { SIGNING_KEYS_STREAM } from '../domain/signing-key/signing-key.js'
import type {
  EventStore,
  EventToAppend,
  RecordedEvent,
  StreamAppend,
} from '../infra/event-store/event-store.js'
import { START } from '../infra/event-store/event-store.js'

type Part = { stream: string; events: EventToAppend[] }
/**
 * Runs of the pattern in which no stream repeats: one `appendToStreams` each (a statement names a
 * stream once). `events` per copy; `recorded`: the events of the template's log, the service's own
 * (its JWT signing key) included, which are not copied.
 */
export type Template = { segments: Part[][]; events: number; recorded: number }

// The deployment's own streams, written once whoever signs up: not part of a person's life.
const SERVICE_STREAMS = new Set([SIGNING_KEYS_STREAM])

const TEMPLATE_LIMIT = 1000

/** The pattern as the log holds it (decrypted by the store), cut into segments. */
export const readTemplate = async (store: EventStore): Promise<Template> => {
  const recorded = await store.readAll(START, TEMPLATE_LIMIT)
  if (recorded.length === 0) throw new Error('the template log is empty')
  const segments: Part[][] = [[]]
  const personal = recorded.filter((event) => !SERVICE_STREAMS.has(event.streamId))
  for (const event of personal) {
    const segment = segments.at(-1) as Part[]
    const last = segment.at(-1)
    if (last?.stream === event.streamId) last.events.push(toAppend(event))
    else if (segment.some((part) => part.stream === event.streamId))
      segments.push([{ stream: event.streamId, events: [toAppend(event)] }])
    else segment.push({ stream: event.streamId, events: [toAppend(event)] })
  }
  return { segments, events: personal.length, recorded: recorded.length }
}

const toAppend = (event: RecordedEvent): EventToAppend =>
  ({ id: event.id, type: event.type, data: event.data, metadata: event.metadata }) as EventToAppend

// Values that name one person's things, or must be unique in a read model: each copy varies them.
const VARIED_KEY = /Id$|Hash$|^email$|^slug$/
const KEPT_KEY = /^(correlationId|causationId)$/

/** The same value in every place of one copy, a different one in each copy. */
export const vary = (value: string, copy: number): string => {
  const suffix = copy.toString(36).padStart(8, '0')
  if (value.includes('@')) return `c${suffix}.${value}`
  return `${value.slice(0, Math.max(0, value.length - suffix.length))}${suffix}`
}

/** `value` with every id, hash, address and slug in it varied for `copy`. */
export const varied = (value: unknown, copy: number, key = ''): unknown => {
  if (typeof value === 'string')
    return VARIED_KEY.test(key) && !KEPT_KEY.test(key) ? vary(value, copy) : value
  if (Array.isArray(value)) return value.map((item) => varied(item, copy))
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, varied(v, copy, k)]))
  return value
}

/** One copy's parts of a segment: new event ids, the person's ids varied everywhere. */
export const copyParts = (segment: readonly Part[], copy: number): StreamAppend[] =>
  segment.map((part) => ({
    stream: vary(part.stream, copy),
    events: part.events.map(
      (event) =>
        ({
          ...event,
          id: randomUUID(),
          data: varied(event.data, copy),
          metadata: varied(event.metadata, copy),
        }) as EventToAppend,
    ),
    options: { expectedVersion: 'any' },
  }))

export type GenerateOptions = {
  /** Events to write at least (whole copies of the pattern). */
  events: number
  /** The number of the first copy: a later generation on the same log goes on where one stopped. */
  firstCopy: number
  /** Copies per append (one transaction each). */
  copiesPerAppend: number
  progress?: (written: number) => void
}

/** Appends copies until `events` are written; the number of the next copy. */
export const generateLog = async (store: EventStore, template: Template, options: GenerateOptions) => {
  const copies = Math.ceil(options.events / template.events)
  const end = options.firstCopy + copies
  for (let first = options.firstCopy; first < end; first += options.copiesPerAppend) {
    const last = Math.min(end, first + options.copiesPerAppend)
    for (const segment of template.segments) {
      const appends: StreamAppend[] = []
      for (let copy = first; copy < last; copy++) appends.push(...copyParts(segment, copy))
      await store.appendToStreams(appends)
    }
    options.progress?.((last - options.firstCopy) * template.events)
  }
  return { nextCopy: end, written: copies * template.events }
}
