/// Specification-style tests for deciders: given(events).when(command).then(events) or
/// .thenThrows(code). Used by the *.unit.spec.ts files beside each aggregate.

import { expect } from 'vitest'
import { type Decider, fold } from '../../domain/shared/decider.js'
import { isDomainError } from '../../domain/shared/errors.js'
import type { DomainEvent } from '../../domain/shared/event.js'

export const specFor = <Command, Event extends DomainEvent, State>(
  decider: Decider<Command, Event, State>,
) => ({
  given: (history: readonly Event[]) => ({
    when: (command: Command) => {
      const run = () => decider.decide(command, fold(decider, history))
      return {
        // biome-ignore lint/suspicious/noThenProperty: the spec DSL reads given/when/then; it is never awaited
        then: (expected: readonly Event[]) => expect(run()).toEqual(expected),
        /** `expected` also pins the answer's status and message, where a rule words its own. */
        thenThrows: (code: string, expected: { status?: number; message?: string } = {}) => {
          let thrown: unknown
          try {
            run()
          } catch (error) {
            thrown = error
          }
          expect(thrown, `expected ${code} to be thrown`).toSatisfy(isDomainError)
          expect((thrown as { code: string }).code).toBe(code)
          expect(thrown).toMatchObject(expected)
        },
      }
    },
  }),
})
