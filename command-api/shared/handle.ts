/// `handle`: load an aggregate's stream, fold it, decide, append with optimistic concurrency (and the
/// unique claims the events make), then wait until the read models show the new events so the
/// caller can read its own writes. A concurrent writer to the same stream makes us re-decide.
/// When the read models cannot show the events within the bound, the command has still happened:
/// with a per-request `readYourWrites` the request is marked behind (the edge answers 503) and the
/// use case goes on; without one, `handle` throws READ_MODELS_BEHIND. Never a silent success.

import { randomUUID } from 'node:crypto'
import { AUTH_ERRORS } from '../../domain/errors.js'
import type { KnownEvent } from '../../domain/events.js'
import type { Decider } from '../../domain/shared/decider.js'
import { fold } from '../../domain/shared/decider.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import {
  ConcurrencyError,
  type EventStore,
  type GlobalPosition,
  type UniqueClaim,
} from '../../infra/event-store/event-store.js'
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
}

export type HandleResult<Event, State> = { events: Event[]; state: State }

export type Handle = <Command, Event extends KnownEvent, State>(
  decider: Decider<Command, Event, State>,
  stream: string,
  command: Command,
  options: HandleOptions<Event>,
) => Promise<HandleResult<Event, State>>

export type HandleDependencies = {
  store: EventStore
  /** Whatever applies the log to the read models: resolves true once it has passed `position`. */
  projector: { waitFor(position: GlobalPosition, timeoutMs: number): Promise<boolean> }
  /** How long a command waits for its read models (without `readYourWrites`). */
  readYourWritesTimeoutMs?: number
  /** One bound per request (its correlation id), shared by all its commands. */
  readYourWrites?: ReadYourWrites
  onStaleRead?: (stream: string) => void
}

export const createHandle = ({
  store,
  projector,
  readYourWritesTimeoutMs = 5000,
  readYourWrites,
  onStaleRead,
}: HandleDependencies): Handle =>
  async function handle<Command, Event extends KnownEvent, State>(
    decider: Decider<Command, Event, State>,
    stream: string,
    command: Command,
    { metadata, claims, newStream = false }: HandleOptions<Event>,
  ): Promise<HandleResult<Event, State>> {
    for (let attempt = 1; ; attempt++) {
      const history = newStream && attempt === 1 ? [] : await store.readStream(stream)
      // The stream holds only this aggregate's events: they were written through this decider.
      const state = fold(decider, history as unknown as Event[])
      const events = decider.decide(command, state)
      const next = events.reduce(decider.evolve, state)
      if (events.length === 0) return { events, state: next }
      let position: GlobalPosition
      try {
        ;({ position } = await store.appendToStream(
          stream,
          events.map((event) => ({ ...event, id: randomUUID(), metadata })),
          {
            expectedVersion: history.at(-1)?.streamVersion ?? 'no_stream',
            uniqueClaims: claims?.(events) ?? [],
          },
        ))
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error
        continue
      }
      const visible = readYourWrites
        ? await readYourWrites.wait(metadata.correlationId, position)
        : await projector.waitFor(position, readYourWritesTimeoutMs)
      if (!visible) {
        onStaleRead?.(stream)
        if (!readYourWrites) throw AUTH_ERRORS.error('READ_MODELS_BEHIND')
      }
      return { events, state: next }
    }
  }
