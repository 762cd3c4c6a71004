/// A decider's verdict before the command runs, for a use case that must answer before it acts
/// (change-email answers first and records after, so that a taken address costs no less time than
/// a free one): the stream is read and folded and `decide` is asked, its events thrown away. The
/// refusal so answered is the decider's own, the one the command would meet a moment later; no rule
/// is written twice at the edge. The command itself still runs through `handle`, which decides again
/// on the state it appends to.

import type { KnownEvent } from '../../domain/events.js'
import { type Decider, fold } from '../../domain/shared/decider.js'
import type { EventStore } from '../../infra/event-store/event-store.js'

/** Throws what `decide` would refuse `command` with on `stream` as it is now; otherwise returns. */
export const decideAhead = async <Command, Event extends KnownEvent, State>(
  store: Pick<EventStore, 'readStream'>,
  decider: Decider<Command, Event, State>,
  stream: string,
  command: Command,
): Promise<void> => {
  // The stream holds only this aggregate's events: they were written through this decider.
  const history = (await store.readStream(stream)) as unknown as Event[]
  decider.decide(command, fold(decider, history))
}

/**
 * Throws what `decide` would refuse `command` with when no history can matter: on a stream the
 * caller has just named (a fresh id, so it holds nothing yet: a sign-up refused before its hash),
 * or for a verdict that reads no state (an SSO registrant admitted before the issuer is fetched).
 * No read, only the decider asked.
 */
export const decideAheadWithoutHistory = <Command, Event extends KnownEvent, State>(
  decider: Decider<Command, Event, State>,
  command: Command,
): void => {
  decider.decide(command, fold(decider, []))
}
