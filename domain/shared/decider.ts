/// The Decider: an aggregate as three pure functions. `decide` holds every rule and returns the
/// events a command causes (or throws a DomainError); `evolve` folds events into state and never
/// throws; `initialState` is the state of a stream that does not exist yet.

import type { DomainEvent } from './event.js'

export type Decider<Command, Event extends DomainEvent, State> = {
  decide: (command: Command, state: State) => Event[]
  evolve: (state: State, event: Event) => State
  initialState: () => State
}

export const fold = <Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State => events.reduce(decider.evolve, decider.initialState())
