/// The kept folded states over a store in memory: which reads they make (the whole stream, or the
/// tail from the kept version), their bounds, and when they refuse to reuse a state.

import { describe, expect, test } from 'vitest'
import type { ReadStreamOptions, RecordedEvent } from '../../infra/event-store/event-store.js'
import { createFoldedStates, type FoldedStatesOptions } from './folded-states.js'

/** Counts events: the state is how many were folded, so a wrong tail shows as a wrong number. */
const counter = { evolve: (n: number) => n + 1, initialState: () => 0 }

const memoryStore = () => {
  const streams = new Map<string, RecordedEvent[]>()
  const reads: (number | undefined)[] = []
  const withoutPersonalMetadata: (boolean | undefined)[] = []
  const append = (stream: string, type = 'test.happened', data: object = {}) => {
    const events = streams.get(stream) ?? []
    events.push({
      id: `${stream}-${events.length + 1}-${Math.random()}`,
      type,
      data,
      metadata: {
        actor: { type: 'system' },
        ip: null,
        userAgent: null,
        correlationId: 'c',
        causationId: null,
        at: '',
      },
      streamId: stream,
      streamVersion: events.length + 1,
      position: { tx: 1n, seq: BigInt(events.length + 1) },
      recordedAt: new Date(),
    })
    streams.set(stream, events)
  }
  const store = {
    async readStream(stream: string, options?: ReadStreamOptions) {
      reads.push(options?.afterVersion)
      withoutPersonalMetadata.push(options?.withoutPersonalMetadata)
      const after = options?.afterVersion ?? 0
      return (streams.get(stream) ?? []).filter((event) => event.streamVersion > after)
    },
  }
  return { store, reads, withoutPersonalMetadata, append, streams }
}

const setUp = (options: Omit<FoldedStatesOptions, 'store'> = {}) => {
  const memory = memoryStore()
  return { ...memory, states: createFoldedStates({ store: memory.store, ...options }) }
}

describe('folded states', () => {
  test('the first load reads the whole stream, the next ones the tail from the kept version', async () => {
    const { states, append, reads } = setUp()
    for (let n = 0; n < 3; n++) append('s')
    expect(await states.load(counter, 's')).toEqual({ state: 3, version: 3 })
    append('s')
    append('s')
    expect(await states.load(counter, 's')).toEqual({ state: 5, version: 5 })
    expect(await states.load(counter, 's')).toEqual({ state: 5, version: 5 })
    expect(reads).toEqual([undefined, 2, 4])
  })

  test('every read, whole or the tail, asks the store to leave the personal metadata unopened', async () => {
    const { states, append, withoutPersonalMetadata } = setUp()
    append('s')
    await states.load(counter, 's')
    append('s')
    await states.load(counter, 's')
    expect(withoutPersonalMetadata).toEqual([true, true])
  })

  test('an empty stream is not kept; another fold of the same stream is not served the kept one', async () => {
    const { states, append, reads } = setUp()
    expect(await states.load(counter, 'empty')).toEqual({ state: 0, version: 0 })
    append('s')
    await states.load(counter, 's')
    const doubling = { evolve: (n: number) => n + 2, initialState: () => 0 }
    expect(await states.load(doubling, 's')).toEqual({ state: 2, version: 1 })
    expect(reads).toEqual([undefined, undefined, undefined])
    expect(states.size()).toBe(1)
  })

  test('keeps at most maxStreams, the least recently used going first', async () => {
    const { states, append, reads } = setUp({ maxStreams: 2 })
    for (const stream of ['a', 'b', 'c']) append(stream)
    await states.load(counter, 'a')
    await states.load(counter, 'b')
    await states.load(counter, 'a')
    await states.load(counter, 'c')
    expect(states.size()).toBe(2)
    reads.length = 0
    await states.load(counter, 'a')
    await states.load(counter, 'b')
    expect(reads).toEqual([0, undefined])
  })

  test('keeps states folded from at most maxEvents events together', async () => {
    const { states, append } = setUp({ maxEvents: 5 })
    for (let n = 0; n < 3; n++) append('a')
    for (let n = 0; n < 3; n++) append('b')
    for (let n = 0; n < 6; n++) append('huge')
    await states.load(counter, 'a')
    await states.load(counter, 'b')
    expect(states.size()).toBe(1)
    await states.load(counter, 'huge')
    expect(states.size()).toBe(1)
  })

  test('a tail whose first event is not the one folded last makes a whole read', async () => {
    const { states, append, reads, streams } = setUp()
    append('s')
    append('s')
    await states.load(counter, 's')
    // The log behind the store is another one: same stream, other events, one more.
    streams.delete('s')
    for (let n = 0; n < 3; n++) append('s')
    expect(await states.load(counter, 's')).toEqual({ state: 3, version: 3 })
    expect(reads).toEqual([undefined, 1, undefined])
  })

  test('a tail that holds an erasing event makes a whole read', async () => {
    const { states, append, reads } = setUp()
    append('user-u1')
    await states.load(counter, 'user-u1')
    append('user-u1', 'user.deleted', { userId: 'u1', alsoErases: [] })
    expect(await states.load(counter, 'user-u1')).toEqual({ state: 2, version: 2 })
    expect(reads).toEqual([undefined, 0, undefined])
  })

  test('a state holding personal fields is reused only while its subjects still open', async () => {
    let readable = true
    const asked: string[][] = []
    const { states, append, reads } = setUp({
      stillReadable: async (subjects) => {
        asked.push([...subjects])
        return readable
      },
    })
    append('user-u1', 'user.registered', { userId: 'u1', email: 'ada@example.com' })
    await states.load(counter, 'user-u1')
    await states.load(counter, 'user-u1')
    readable = false
    await states.load(counter, 'user-u1')
    expect(reads).toEqual([undefined, 0, 0, undefined])
    expect(asked).toEqual([['u1'], ['u1']])
  })

  test('without stillReadable, a state holding personal fields is not kept', async () => {
    const { states, append, reads } = setUp()
    append('user-u1', 'user.registered', { userId: 'u1', email: 'ada@example.com' })
    await states.load(counter, 'user-u1')
    await states.load(counter, 'user-u1')
    expect(reads).toEqual([undefined, undefined])
    expect(states.size()).toBe(0)
  })
})
