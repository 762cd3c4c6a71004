/// `handle`: load an aggregate's stream, fold it, decide, append with optimistic concurrency (and the
/// unique claims the events make), then wait until the read models show the new events so the
/// caller can read its own writes. A concurrent writer to the same stream makes us re-decide.
/// When the read models cannot show the events within the bound, the command has still happened:
/// with a per-request `readYourWrites` the request is marked behind (the edge answers 503) and the
/// use case goes on; without one, `handle` throws READ_MODELS_BEHIND. Never a silent success.
/// `handle.together` does the same for commands to several aggregates at once (a new user and their
/// first session): one append of all their events, one wait.
/// The folded states are kept between commands (folded-states.ts): each command reads only the
/// events appended to its stream since the last one, however long the stream. `handle.load` gives
/// the edge that state (what it must compute before deciding, such as which TOTP step a code
/// matches); a command pinned to the version loaded (`expectedVersion`) is then decided on the kept
/// state without reading the stream again: were the stream to move meanwhile, the append fails.

import { randomUUID } from 'node:crypto'
import { AUTH_ERRORS } from '../../domain/errors.js'
import type { KnownEvent } from '../../domain/events.js'
import type { Decider } from '../../domain/shared/decider.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import {
  ConcurrencyError,
  comparePositions,
  type EventStore,
  type GlobalPosition,
  type StreamAppend,
  type UniqueClaim,
} from '../../infra/event-store/event-store.js'
import { createFoldedStates, type Folded, type FoldedStatesOptions } from './folded-states.js'
import type { ReadYourWrites } from './read-your-writes.js'

const MAX_ATTEMPTS = 4

export type HandleOptions<Event extends KnownEvent> = {
  metadata: EventMetadata
  /** Unique claims the new events take or release. */
  claims?: (events: readonly Event[]) => readonly UniqueClaim[]
  /**
   * The stream's id was just made by the caller (a fresh random id), so it holds no events yet:
   * the first attempt decides on the empty history without reading it. Were it wrong, the append
   * expecting no stream would fail and the next attempt reads the stream as usual.
   */
  newStream?: boolean
  /**
   * The version the caller read the stream at and built the command from (a read-modify-write
   * such as a SCIM PATCH): a concurrent append then throws ConcurrencyError, for the caller to read
   * and build again, rather than deciding again on a command made from the older state.
   */
  expectedVersion?: number
  /**
   * Called once the events are in the log, before the wait for the read models: a caller that
   * queues its appends to one stream lets the next one go then (the next one's read sees these).
   */
  onAppended?: () => void
  /**
   * The stream is written through this decider only and its events' data read back as written
   * (plain JSON): the first attempt decides on the state this process kept, without reading the
   * stream, and appends expecting its version, which proves it current (a stream that moved fails
   * the append, and the next attempt reads). A decision on it that appends nothing (a refusal, a
   * no-op) may only be stale, so it is taken again on the stream as read. The state after the
   * append is kept, for the stream's next command.
   */
  decideOnKeptState?: boolean
}

export type HandleResult<Event, State> = { events: Event[]; state: State }

/** One aggregate's command, for `handle.together`. */
export type HandlePart<Command, Event extends KnownEvent, State> = {
  decider: Decider<Command, Event, State>
  stream: string
  command: Command
  options: HandleOptions<Event>
}

/** A part with its types checked against its decider (a list of parts keeps only their union). */
export const handlePart = <Command, Event extends KnownEvent, State>(
  decider: Decider<Command, Event, State>,
  stream: string,
  command: Command,
  options: HandleOptions<Event>,
): HandlePart<Command, Event, State> => ({ decider, stream, command, options })

// biome-ignore lint/suspicious/noExplicitAny: parts of any aggregate; each is typed by `handlePart`
type AnyPart = HandlePart<any, any, any>

type ResultsOf<Parts extends readonly AnyPart[]> = {
  // biome-ignore lint/suspicious/noExplicitAny: only the event and state types are read here
  -readonly [K in keyof Parts]: Parts[K] extends HandlePart<any, infer Event, infer State>
    ? HandleResult<Event, State>
    : never
}

export type Handle = (<Command, Event extends KnownEvent, State>(
  decider: Decider<Command, Event, State>,
  stream: string,
  command: Command,
  options: HandleOptions<Event>,
) => Promise<HandleResult<Event, State>>) & {
  /**
   * The parts' commands decided each on its own stream and appended together
   * (`EventStore.appendToStreams`: one transaction on SQL), then one wait for the read models. A
   * concurrent writer to any of the streams makes all of them re-decide.
   */
  together<const Parts extends readonly AnyPart[]>(parts: Parts): Promise<ResultsOf<Parts>>
  /**
   * The stream's state as the log has it now (version 0: no events), folded by the decider's
   * `evolve`, from the kept state when there is one: for an edge that computes the command from it.
   */
  load<State>(
    decider: Pick<Decider<never, never, State>, 'evolve' | 'initialState'>,
    stream: string,
  ): Promise<Folded<State>>
}

export type HandleDependencies = {
  store: EventStore
  /** Whatever applies the log to the read models: resolves true once it has passed `position`. */
  projector: { waitFor(position: GlobalPosition, timeoutMs: number): Promise<boolean> }
  /** How long a command waits for its read models (without `readYourWrites`). */
  readYourWritesTimeoutMs?: number
  /** One bound per request (its correlation id), shared by all its commands. */
  readYourWrites?: ReadYourWrites
  onStaleRead?: (stream: string) => void
  /**
   * The kept folded states: their bounds, and how to tell that personal data folded into one was
   * not erased since (without it, states holding personal data are not kept).
   */
  foldedStates?: Omit<FoldedStatesOptions, 'store'>
}

export const createHandle = ({
  store,
  projector,
  readYourWritesTimeoutMs = 5000,
  readYourWrites,
  onStaleRead,
  foldedStates,
}: HandleDependencies): Handle => {
  const folded = createFoldedStates({ store, ...foldedStates })
  // A pinned first attempt decides on the state kept at that version (the caller loaded it through
  // `load`): a stream that moved since fails the pinned append rather than being decided on stale.
  const firstState = async (
    decider: AnyPart['decider'],
    stream: string,
    options: AnyPart['options'],
    attempt: number,
  ) => {
    if (attempt === 1 && options.newStream) return { state: decider.initialState(), version: 0 }
    const pinned = options.expectedVersion
    const kept = attempt === 1 && pinned !== undefined ? folded.keptAt(decider, stream, pinned) : null
    return kept ?? folded.load(decider, stream)
  }
  /** The decision on the kept state when it appends something; null to decide on the stream as read. */
  const decidedOnKept = async ({ decider, stream, command, options }: AnyPart, attempt: number) => {
    const unpinned = options.expectedVersion === undefined && !options.newStream
    if (attempt !== 1 || !options.decideOnKeptState || !unpinned) return null
    const kept = await folded.keptUnread(decider, stream)
    if (!kept) return null
    try {
      const events: KnownEvent[] = decider.decide(command, kept.state)
      return events.length > 0 ? { ...kept, events } : null
    } catch {
      return null
    }
  }
  const decideAll = async (parts: readonly AnyPart[], attempt: number) =>
    Promise.all(
      parts.map(async (part) => {
        const { decider, stream, command, options } = part
        // The stream holds only this aggregate's events: they were written through this decider.
        // After a concurrent append (attempt 2 on), the load reads what that append added.
        const onKept = await decidedOnKept(part, attempt)
        const { state, version } = onKept ?? (await firstState(decider, stream, options, attempt))
        const events: KnownEvent[] = onKept?.events ?? decider.decide(command, state)
        const append: StreamAppend = {
          stream,
          events: events.map((event) => ({ ...event, id: randomUUID(), metadata: options.metadata })),
          options: {
            expectedVersion: options.expectedVersion ?? (version === 0 ? 'no_stream' : version),
            uniqueClaims: options.claims?.(events) ?? [],
          },
        }
        return { events, state: events.reduce(decider.evolve, state), append, from: { state, version } }
      }),
    )

  const together = async (parts: readonly AnyPart[]): Promise<HandleResult<KnownEvent, unknown>[]> => {
    for (let attempt = 1; ; attempt++) {
      const decided = await decideAll(parts, attempt)
      const appends = decided.filter(({ events }) => events.length > 0).map(({ append }) => append)
      const results = decided.map(({ events, state }) => ({ events, state }))
      if (appends.length === 0) return results
      let positions: GlobalPosition[]
      try {
        positions = (await store.appendToStreams(appends)).map(({ position }) => position)
      } catch (error) {
        const pinned = parts.some(({ options }) => options.expectedVersion !== undefined)
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS || pinned) throw error
        continue
      }
      for (const [index, { decider, stream, options }] of parts.entries()) {
        const { events, append, from } = decided[index] as (typeof decided)[number]
        if (options.decideOnKeptState && events.length > 0)
          folded.keepAppended(decider, stream, from, append.events)
      }
      for (const { options } of parts) options.onAppended?.()
      const last = positions.reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b))
      const { correlationId } = (parts[0] as AnyPart).options.metadata
      const visible = readYourWrites
        ? await readYourWrites.wait(correlationId, last)
        : await projector.waitFor(last, readYourWritesTimeoutMs)
      if (!visible) {
        onStaleRead?.(appends.map(({ stream }) => stream).join(', '))
        if (!readYourWrites) throw AUTH_ERRORS.error('READ_MODELS_BEHIND')
      }
      return results
    }
  }

  const handle = async <Command, Event extends KnownEvent, State>(
    decider: Decider<Command, Event, State>,
    stream: string,
    command: Command,
    options: HandleOptions<Event>,
  ): Promise<HandleResult<Event, State>> => {
    const [result] = await together([handlePart(decider, stream, command, options)])
    return result as HandleResult<Event, State>
  }
  return Object.assign(handle, {
    load: <State>(decider: Pick<Decider<never, never, State>, 'evolve' | 'initialState'>, stream: string) =>
      folded.load(decider, stream),
    together: <const Parts extends readonly AnyPart[]>(parts: Parts) =>
      together(parts) as Promise<ResultsOf<Parts>>,
  })
}
