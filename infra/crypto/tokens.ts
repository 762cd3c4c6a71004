/// Random tokens and identifiers from the CSPRNG, and how they are kept at rest (hashes).
/// One-time tokens that go out by mail are derived instead (derived-tokens.ts).

import { hash } from 'node:crypto'
import { randomPool } from './random-pool.js'

export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
export const LOWERCASE_ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz'

// Bytes come from a pool (random-pool.ts), and the string is built from character codes: a draw of a
// token's few dozen bytes and a string built a character at a time cost about 6 µs a token, five
// times what the rest of it does (a code exchange makes two).
const pool = randomPool(4096)

/** Characters turned into a string this many at a time (a call's arguments are bounded). */
const CHUNK = 1024

/**
 * `length` characters drawn uniformly from `alphabet`. Bytes at or above the largest multiple of
 * the alphabet size are rejected: taking `byte % size` of every byte would favour the first
 * characters (modulo bias).
 */
export const randomToken = (length: number, alphabet: string): string => {
  assertTokenShape(length, alphabet)
  const size = alphabet.length
  const limit = 256 - (256 % size)
  let token = ''
  const codes: number[] = []
  for (let drawn = 0; drawn < length; ) {
    const byte = pool.byte()
    if (byte >= limit) continue
    codes.push(alphabet.charCodeAt(byte % size))
    drawn += 1
    if (codes.length === CHUNK || drawn === length) {
      token += String.fromCharCode(...codes)
      codes.length = 0
    }
  }
  return token
}

// Callers pass a few constant alphabets: each is checked once, not on every token (a Set of its
// characters each time).
const goodAlphabets = new Set<string>()
const MAX_GOOD_ALPHABETS = 64

const assertTokenShape = (length: number, alphabet: string): void => {
  if (!Number.isInteger(length) || length < 1) throw new RangeError('token length must be a positive integer')
  if (goodAlphabets.has(alphabet)) return
  if (alphabet.length < 2 || alphabet.length > 256)
    throw new RangeError('alphabet must have 2 to 256 characters')
  if (new Set(alphabet).size !== alphabet.length) throw new RangeError('alphabet must not repeat characters')
  if (goodAlphabets.size < MAX_GOOD_ALPHABETS) goodAlphabets.add(alphabet)
}

/** 32 alphanumeric characters: about 190 bits. */
export const sessionToken = (): string => randomToken(32, ALPHANUMERIC)

/** An entity id shaped like better-auth's `generateId()`: 32 alphanumeric characters. */
export const newId = (): string => randomToken(32, ALPHANUMERIC)

/**
 * How a token is stored at rest: its SHA-256, never the token itself. One-shot (`hash`): every
 * presented secret and token is hashed, and a Hash object made, fed and dropped takes three times
 * as long.
 */
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex')
