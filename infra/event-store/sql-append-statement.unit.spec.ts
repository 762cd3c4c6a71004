import { describe, expect, test } from 'vitest'
import type { StreamAppend } from './event-store.js'
import { appendStatement } from './sql-append-statement.js'

const anAppend = (stream: string, expectedVersion: StreamAppend['options']['expectedVersion']) => ({
  stream,
  events: [
    { id: crypto.randomUUID(), type: 'thing.happened', data: { stream }, metadata: {} },
  ] as unknown as StreamAppend['events'],
  options: { expectedVersion },
})

// The text is what PostgreSQL prepares under a name (infra/db/pg-prepared.ts): one text a shape,
// whatever the streams, versions, events and claims, or every append would be a new statement.
describe("an append's statement", () => {
  test('has one text for every append of one shape: streams, versions and events are values', () => {
    const first = appendStatement(
      [anAppend('two-factor-a', 6), anAppend('session-a', 'no_stream')],
      [{ claim: { op: 'claim', scope: 'x', value: 'a', owner: 'session-a' }, index: 1 }],
      { locks: ['two-factor-a', 'session-a'], storeId: 'store-1' },
    )
    const second = appendStatement(
      [anAppend('two-factor-b', 9), anAppend('session-b', 'no_stream')],
      [{ claim: { op: 'claim', scope: 'y', value: 'b', owner: 'session-b' }, index: 1 }],
      { locks: ['two-factor-b', 'session-b'], storeId: 'store-2' },
    )
    expect(second.text).toBe(first.text)
    expect(first.text).not.toMatch(/two-factor-a|session-a|store-1/)
    expect(first.values).toContainEqual(['two-factor-a', 'session-a'])
  })

  test('numbers its parameters in the order of its values, each once', () => {
    const { text, values } = appendStatement([anAppend('a', 'any'), anAppend('b', 3)], [], {
      locks: ['a', 'b'],
      storeId: 's',
    })
    const numbers = [...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]))
    expect(numbers).toEqual(values.map((_, index) => index + 1))
  })

  test('takes no lock where the store needs none (one backend), and one without sorting for one stream', () => {
    const none = appendStatement([anAppend('a', 'no_stream')], [], { locks: [], storeId: 's' })
    const one = appendStatement([anAppend('a', 'no_stream')], [], { locks: ['a'], storeId: 's' })
    expect(none.text).not.toContain('pg_advisory_xact_lock')
    expect(one.text).toContain('select pg_advisory_xact_lock(hashtextextended($1, 0))')
  })
})
