import { describe, expect, it } from 'vitest'
import { gatheredCalls } from './gathered-calls.js'

/** Answers each key with its length, recording the keys of every statement made. */
const counting = () => {
  const statements: Array<{ q: string; keys: readonly string[] }> = []
  const answerMany = async (q: string, keys: readonly string[]) => {
    statements.push({ q, keys })
    return new Map(keys.map((key) => [key, key.length]))
  }
  return { statements, answerMany }
}

describe('calls gathered into one statement', () => {
  it('answers the calls made within the window, through one connection, with one statement', async () => {
    const { statements, answerMany } = counting()
    const call = gatheredCalls(answerMany, 5)
    const answers = await Promise.all([call('c1', 'a'), call('c1', 'bb'), call('c1', 'ccc')])
    expect(answers).toEqual([1, 2, 3])
    expect(statements).toEqual([{ q: 'c1', keys: ['a', 'bb', 'ccc'] }])
  })

  it('makes one statement per connection, and a new one for calls after the window', async () => {
    const { statements, answerMany } = counting()
    const call = gatheredCalls(answerMany, 5)
    await Promise.all([call('c1', 'a'), call('c2', 'b')])
    expect(await call('c1', 'cc')).toBe(2)
    expect(statements).toEqual([
      { q: 'c1', keys: ['a'] },
      { q: 'c2', keys: ['b'] },
      { q: 'c1', keys: ['cc'] },
    ])
  })

  it('answers undefined for a key the statement left out, and fails every call of a failed one', async () => {
    const call = gatheredCalls(async (_q: string, keys: readonly string[]) => {
      if (keys.includes('boom')) throw new Error('connection lost')
      return new Map<string, number>()
    }, 5)
    expect(await call('c1', 'missing')).toBeUndefined()
    const failed = [call('c1', 'a'), call('c1', 'boom')]
    await Promise.all(failed.map((one) => expect(one).rejects.toThrow('connection lost')))
  })
})
