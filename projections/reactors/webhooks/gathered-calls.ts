/// Calls for single keys made within a few milliseconds of each other, answered by one statement for
/// all their keys. One commit wakes every endpoint's worker at once, and every 30 s their runs end and
/// start again together: each run taking its lock, reading its endpoint and checkpoint and letting go
/// of its lock on its own made four statements per endpoint where four serve them all (issue 34).
/// Calls are gathered per connection (`q`): an endpoint's lock lives on the connection it was taken on.

import { setTimeout as sleep } from 'node:timers/promises'

/** Answers many keys at once through `q`; a key left out of the answer has none (`undefined`). */
export type AnswerMany<Q, K, V> = (q: Q, keys: readonly K[]) => Promise<ReadonlyMap<K, V>>

type Batch<K, V> = { keys: Set<K>; answer: Promise<ReadonlyMap<K, V>> }

/**
 * One call's answer, from the statement made for every call through the same `q` in the `gatherMs`
 * since the first of them. A failed statement fails every call in it.
 */
export const gatheredCalls = <Q, K, V>(answerMany: AnswerMany<Q, K, V>, gatherMs: number) => {
  const waiting = new Map<Q, Batch<K, V>>()
  const startBatch = (q: Q) => {
    const batch: Batch<K, V> = { keys: new Set(), answer: Promise.resolve(new Map()) }
    batch.answer = sleep(gatherMs).then(() => {
      // Calls from now on start the next batch: this one's keys are fixed.
      if (waiting.get(q) === batch) waiting.delete(q)
      return answerMany(q, [...batch.keys])
    })
    waiting.set(q, batch)
    return batch
  }
  return async (q: Q, key: K): Promise<V | undefined> => {
    const batch = waiting.get(q) ?? startBatch(q)
    batch.keys.add(key)
    return (await batch.answer).get(key)
  }
}
