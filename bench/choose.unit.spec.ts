import { describe, expect, it } from 'vitest'
import { chosenNames, isChosen, parseOnly, unmatchedEntries } from './choose.js'

const factors = { group: 'factors', names: ['two-factor sign-in c16'] }
const shared = { names: ['get-session c1', 'get-session c16', 'sign-in c16'] }

describe('BENCH_ONLY', () => {
  it('picks everything when empty', () => {
    expect(chosenNames(shared, [])).toEqual(shared.names)
    expect(chosenNames(factors, parseOnly('  , '))).toEqual(factors.names)
  })

  it('picks by name prefix, spaces and dashes alike', () => {
    expect(chosenNames(shared, parseOnly('get-session-c1'))).toEqual(['get-session c1', 'get-session c16'])
    expect(chosenNames(shared, parseOnly('sign-in c16'))).toEqual(['sign-in c16'])
  })

  it("picks a whole group by the group's name, and nothing else by it", () => {
    expect(chosenNames(factors, parseOnly('factors,oauth'))).toEqual(factors.names)
    expect(chosenNames(shared, parseOnly('factors,oauth'))).toEqual([])
  })

  it('does not take a prefix of a group name for the group', () => {
    expect(isChosen('two-factor sign-in c16', ['fact'], 'factors')).toBe(false)
  })

  it('names the entries that pick nothing', () => {
    expect(unmatchedEntries([factors, shared], parseOnly('factors,get-sesion,sign-in'))).toEqual([
      'get-sesion',
    ])
  })
})
