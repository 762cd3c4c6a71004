/// One JSON object of tessera.config.json as the feature parsers read it (config-file.ts and the
/// per-feature option modules), in a module of its own so that those modules form no import circle.

import { ConfigError } from './config-error.js'

type JsonObject = Record<string, unknown>

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** One JSON object of the file; remembers which keys were read so the rest can be refused. */
export class Section {
  private readonly values: JsonObject
  private readonly read = new Set<string>()

  constructor(
    private readonly label: string,
    private readonly path: string,
    value: unknown,
  ) {
    if (value !== undefined && !isObject(value)) throw this.error(path, 'must be an object')
    this.values = value ?? {}
  }

  section(key: string): Section {
    return new Section(this.label, this.pathOf(key), this.take(key))
  }

  /** The value as written, for a section with keys of its own choosing (checked by the caller). */
  raw(key: string): unknown {
    return this.take(key)
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.take(key)
    if (value === undefined) return fallback
    if (typeof value !== 'boolean') throw this.error(this.pathOf(key), 'must be true or false')
    return value
  }

  integer(key: string, fallback: number, min: 0 | 1): number {
    const value = this.take(key)
    if (value === undefined) return fallback
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      throw this.error(
        this.pathOf(key),
        min === 1 ? 'must be a positive integer' : 'must be a non-negative integer',
      )
    }
    return value
  }

  /** A positive integer, or null (written as null or left out when `fallback` is null). */
  integerOrNull(key: string, fallback: number | null): number | null {
    const value = this.take(key)
    if (value === null) return null
    if (value === undefined) return fallback
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
      throw this.error(this.pathOf(key), 'must be a positive integer or null')
    return value
  }

  oneOf<const Value extends string>(key: string, values: readonly Value[], fallback: Value): Value {
    const value = this.take(key)
    if (value === undefined) return fallback
    const known = values.find((candidate) => candidate === value)
    if (known === undefined)
      throw this.error(this.pathOf(key), `must be one of ${values.map((v) => `"${v}"`).join(', ')}`)
    return known
  }

  /** A non-empty string. */
  text(key: string, fallback: string): string {
    const value = this.take(key)
    if (value === undefined) return fallback
    if (typeof value !== 'string' || value.trim() === '')
      throw this.error(this.pathOf(key), 'must be a non-empty string')
    return value
  }

  /** A list of non-empty strings, without repeats. */
  textList(key: string, fallback: readonly string[]): string[] {
    const value = this.take(key)
    if (value === undefined) return [...fallback]
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.trim() !== ''))
      throw this.error(this.pathOf(key), 'must be a list of non-empty strings')
    return [...new Set(value as string[])]
  }

  /** A list of lowercase ids (letters, digits, - and _); empty when left out. */
  idList(key: string): string[] {
    const value = this.take(key)
    if (value === undefined) return []
    if (
      !Array.isArray(value) ||
      !value.every((id) => typeof id === 'string' && /^[a-z0-9][a-z0-9_-]*$/.test(id))
    )
      throw this.error(this.pathOf(key), 'must be a list of provider ids')
    return [...new Set(value as string[])]
  }

  /** Returns `result` once no key of this object is left unread. */
  done<T>(result: T): T {
    this.rejectUnread()
    return result
  }

  rejectUnread(): void {
    const unknown = Object.keys(this.values).find((key) => !this.read.has(key))
    if (unknown !== undefined) throw this.error(this.pathOf(unknown), 'is not a known option')
  }

  error(path: string, reason: string): ConfigError {
    const subject = path === '' ? 'the top level' : path
    return new ConfigError(`${this.label}:${path}`, `${this.label}: ${subject} ${reason}`)
  }

  private take(key: string): unknown {
    this.read.add(key)
    return Object.hasOwn(this.values, key) ? this.values[key] : undefined
  }

  private pathOf(key: string): string {
    return this.path === '' ? key : `${this.path}.${key}`
  }
}
