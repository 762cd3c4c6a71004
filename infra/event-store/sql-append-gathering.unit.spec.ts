import { describe, expect, test } from 'vitest'
import type { AppendResult, StreamAppend, UniqueClaim } from './event-store.js'
import { createAppendGathering, nextStatement } from './sql-append-gathering.js'

const call = (streams: string[], claims: string[] = []) => ({
  parts: streams.map((stream) => ({
    stream,
    events: [],
    options: {
      expectedVersion: 'any' as const,
      uniqueClaims: claims.map(
        (value): UniqueClaim => ({ op: 'claim', scope: 'email', value, owner: stream }),
      ),
    },
  })) as StreamAppend[],
})
const streamsOf = (calls: readonly { parts: readonly StreamAppend[] }[]) =>
  calls.map(({ parts }) => parts.map(({ stream }) => stream).join('+'))

describe('the next gathered statement', () => {
  test('takes the waiting calls in order, but none naming a stream or claimed value already in it', () => {
    const waiting = [
      call(['a']),
      call(['b'], ['x@example.com']),
      call(['a', 'c']),
      call(['d'], ['x@example.com']),
      call(['e']),
    ]
    expect(streamsOf(nextStatement(waiting, 64))).toEqual(['a', 'b', 'e'])
    expect(streamsOf(waiting)).toEqual(['a+c', 'd'])
  })

  test('leaves a call after one left waiting on its stream, so one stream keeps its order', () => {
    const waiting = [call(['a']), call(['a', 'b']), call(['b']), call(['c'])]
    expect(streamsOf(nextStatement(waiting, 64))).toEqual(['a', 'c'])
    expect(streamsOf(waiting)).toEqual(['a+b', 'b'])
  })

  test('carries at most the cap of parts, but always the first call', () => {
    const waiting = [call(['a', 'b', 'c']), call(['d']), call(['e', 'f'])]
    expect(streamsOf(nextStatement(waiting, 2))).toEqual(['a+b+c'])
    expect(streamsOf(nextStatement(waiting, 2))).toEqual(['d'])
  })
})

describe('gathering appends', () => {
  /** A log in memory that refuses a statement naming a stream in `refused`, as the database would. */
  const aLog = (refused: string[] = []) => {
    const statements: string[][] = []
    let tx = 0n
    const send = async (parts: readonly StreamAppend[]): Promise<AppendResult[]> => {
      await Promise.resolve()
      statements.push(parts.map(({ stream }) => stream))
      if (parts.some(({ stream }) => refused.includes(stream))) throw new Error('refused')
      tx += 1n
      return parts.map((_, seq) => ({ nextVersion: 1, position: { tx, seq: BigInt(seq) } }))
    }
    return { send, statements }
  }

  test('calls asked while a statement is out go together as one, each with its own results', async () => {
    const { send, statements } = aLog()
    const gathering = createAppendGathering(send)
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((s) => gathering.append(call([s]).parts)))
    expect(statements).toEqual([['a'], ['b', 'c', 'd']])
    expect(results.map(([result]) => result?.position)).toEqual([
      { tx: 1n, seq: 0n },
      { tx: 2n, seq: 0n },
      { tx: 2n, seq: 1n },
      { tx: 2n, seq: 2n },
    ])
  })

  test('a refused statement is sent again call by call, in order: only the one at fault fails', async () => {
    const { send, statements } = aLog(['c'])
    const gathering = createAppendGathering(send)
    const settled = await Promise.allSettled(
      ['a', 'b', 'c', 'd'].map((s) => gathering.append(call([s]).parts)),
    )
    expect(settled.map(({ status }) => status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    expect(statements).toEqual([['a'], ['b', 'c', 'd'], ['b'], ['c'], ['d']])
  })
})
