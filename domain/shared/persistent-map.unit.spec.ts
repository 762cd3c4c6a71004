import { describe, expect, it } from 'vitest'
import { PersistentMap } from './persistent-map.js'

const snapshot = <V>(map: ReadonlyMap<string, V>) => [...map.entries()]

/** A small deterministic generator, so a failure replays. */
const random = (seed: number) => () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
  return seed / 2 ** 32
}

describe('PersistentMap', () => {
  it('answers a new map on set, delete and update, and the map it came from stays as it was', () => {
    const one = PersistentMap.empty<number>().set('a', 1).set('b', 2)
    const two = one.set('c', 3)
    const three = two.delete('a')
    const four = three.update('b', (value) => value * 10)
    expect(snapshot(one)).toEqual([
      ['a', 1],
      ['b', 2],
    ])
    expect(snapshot(two)).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ])
    expect(snapshot(three)).toEqual([
      ['b', 2],
      ['c', 3],
    ])
    expect(snapshot(four)).toEqual([
      ['b', 20],
      ['c', 3],
    ])
    expect([one.size, two.size, three.size, four.size]).toEqual([2, 3, 2, 2])
    expect(one.get('a')).toBe(1)
    expect(three.has('a')).toBe(false)
  })

  it('iterates in insertion order as a Map does: a key set again keeps its place, one deleted and set again goes last', () => {
    const keys = Array.from({ length: 500 }, (_, n) => `key-${(n * 7919) % 500}`)
    let map = PersistentMap.empty<number>()
    for (const key of keys) map = map.set(key, 1)
    map = map
      .set(keys[10] as string, 2)
      .delete(keys[20] as string)
      .set(keys[20] as string, 3)
    const reference = new Map(keys.map((key) => [key, 1]))
    reference.set(keys[10] as string, 2).delete(keys[20] as string)
    reference.set(keys[20] as string, 3)
    expect([...map]).toEqual([...reference])
    expect([...map.keys()]).toEqual([...reference.keys()])
    expect([...map.values()]).toEqual([...reference.values()])
    const seen: string[] = []
    map.forEach((_value, key) => {
      seen.push(key)
    })
    expect(seen).toEqual([...reference.keys()])
  })

  it('agrees with a Map over thousands of random sets and deletes, and keeps every earlier version intact', () => {
    const next = random(36)
    let map = PersistentMap.empty<number>()
    const reference = new Map<string, number>()
    const versions: { map: PersistentMap<number>; expected: [string, number][] }[] = []
    for (let step = 0; step < 5_000; step++) {
      const key = `id-${Math.floor(next() * 3_000)}`
      if (next() < 0.25) {
        map = map.delete(key)
        reference.delete(key)
      } else {
        map = map.set(key, step)
        reference.set(key, step)
      }
      if (step % 500 === 0) versions.push({ map, expected: [...reference] })
      expect(map.size).toBe(reference.size)
    }
    expect([...map]).toEqual([...reference])
    for (const key of ['id-1', 'id-2999', 'absent']) expect(map.get(key)).toBe(reference.get(key))
    for (const { map: kept, expected } of versions) expect([...kept]).toEqual(expected)
  })

  it('answers the very map for a delete or update of a key that is not there', () => {
    const map = PersistentMap.of([['a', 1]])
    expect(map.delete('b')).toBe(map)
    expect(map.update('b', () => 2)).toBe(map)
  })
})
