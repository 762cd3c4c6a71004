/// A map that never changes: `set` and `delete` answer a new map that shares all but one short path
/// with this one, so adding the 10,001st member of an organization copies a few dozen slots, not the
/// 10,000 entries before it (a `new Map(old).set(...)` does), and every earlier state stays as it was.
/// Folded states are shared between commands and handed to callers (command-api/shared/folded-states.ts),
/// so a state must never change under its holder: this map has no method that changes it.
///
/// A two-level trie of 32-slot arrays indexed by the key's hash, with small arrays of entries at the
/// leaves. It iterates in insertion order, as a `Map` does (a key set again keeps its place), which
/// the deciders rely on where they emit one event per entry (an organization's deletion).

const BITS = 5
const WIDTH = 1 << BITS
const MASK = WIDTH - 1

type Entry<V> = { readonly key: string; readonly value: V; readonly order: number }
type Leaf<V> = readonly Entry<V>[]
type Branch<V> = readonly (Leaf<V> | undefined)[]
type Root<V> = readonly (Branch<V> | undefined)[]

/** FNV-1a over the key's UTF-16 units: ids are random, so the slots fill evenly. */
const hashOf = (key: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

const slotsOf = (key: string) => {
  const hash = hashOf(key)
  return [hash & MASK, (hash >>> BITS) & MASK] as const
}

const replaced = <T>(slots: readonly T[] | undefined, index: number, value: T): readonly T[] => {
  const next = slots ? [...slots] : new Array<T>(WIDTH)
  next[index] = value
  return next
}

export class PersistentMap<V> implements ReadonlyMap<string, V> {
  readonly size: number
  readonly #root: Root<V>
  /** The order the next new key gets: iteration sorts by it. */
  readonly #next: number
  /** The entries in insertion order, made the first time this map is iterated (it never changes). */
  #ordered: Map<string, V> | undefined

  private constructor(root: Root<V>, size: number, next: number) {
    this.#root = root
    this.size = size
    this.#next = next
  }

  static empty<V>(): PersistentMap<V> {
    return new PersistentMap<V>([], 0, 0)
  }

  static of<V>(entries: Iterable<readonly [string, V]>): PersistentMap<V> {
    let map = PersistentMap.empty<V>()
    for (const [key, value] of entries) map = map.set(key, value)
    return map
  }

  #leaf(key: string): { leaf: Leaf<V> | undefined; at: readonly [number, number] } {
    const at = slotsOf(key)
    return { leaf: this.#root[at[0]]?.[at[1]], at }
  }

  #entry(key: string): Entry<V> | undefined {
    return this.#leaf(key).leaf?.find((entry) => entry.key === key)
  }

  get(key: string): V | undefined {
    return this.#entry(key)?.value
  }

  has(key: string): boolean {
    return this.#entry(key) !== undefined
  }

  #with(at: readonly [number, number], leaf: Leaf<V>, size: number, next: number): PersistentMap<V> {
    const [top, bottom] = at
    const branch = replaced(this.#root[top], bottom, leaf.length > 0 ? leaf : undefined)
    return new PersistentMap(replaced(this.#root, top, branch), size, next)
  }

  /** This map with `key` set to `value` (a key already there keeps its place in the order). */
  set(key: string, value: V): PersistentMap<V> {
    const { leaf = [], at } = this.#leaf(key)
    const index = leaf.findIndex((entry) => entry.key === key)
    if (index === -1)
      return this.#with(at, [...leaf, { key, value, order: this.#next }], this.size + 1, this.#next + 1)
    const next = [...leaf]
    next[index] = { key, value, order: (leaf[index] as Entry<V>).order }
    return this.#with(at, next, this.size, this.#next)
  }

  /** This map without `key` (this very map when `key` is not there). */
  delete(key: string): PersistentMap<V> {
    const { leaf = [], at } = this.#leaf(key)
    if (!leaf.some((entry) => entry.key === key)) return this
    const next = leaf.filter((entry) => entry.key !== key)
    return this.#with(at, next, this.size - 1, this.#next)
  }

  /** This map with `key`'s value changed (this very map when `key` is not there). */
  update(key: string, change: (value: V) => V): PersistentMap<V> {
    const entry = this.#entry(key)
    return entry === undefined ? this : this.set(key, change(entry.value))
  }

  #inOrder(): Map<string, V> {
    if (this.#ordered) return this.#ordered
    const all: Entry<V>[] = []
    for (const branch of this.#root) for (const leaf of branch ?? []) all.push(...(leaf ?? []))
    all.sort((a, b) => a.order - b.order)
    this.#ordered = new Map(all.map(({ key, value }) => [key, value]))
    return this.#ordered
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#inOrder()) callback.call(thisArg, value, key, this)
  }

  entries() {
    return this.#inOrder().entries()
  }

  keys() {
    return this.#inOrder().keys()
  }

  values() {
    return this.#inOrder().values()
  }

  [Symbol.iterator]() {
    return this.#inOrder()[Symbol.iterator]()
  }
}
