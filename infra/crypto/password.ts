/// Password hashing with scrypt, in better-auth's exact format (`<salt hex>:<key hex>`), so hashes
/// written by better-auth verify here and the other way round.

import { randomBytes, timingSafeEqual } from 'node:crypto'
import { scryptOnWorkers } from './scrypt/scrypt-workers.js'

const COST = 16384
const BLOCK_SIZE = 16
const PARALLELISM = 1
const KEY_BYTES = 64
const SALT_BYTES = 16
// Node refuses scrypt above 32 MiB by default; N=16384 with r=16 needs 32 MiB plus overhead.
const MAX_MEMORY = 128 * COST * BLOCK_SIZE * 2

const STORED_KEY = /^[0-9a-fA-F]{128}$/

// better-auth feeds the salt to scrypt as its hex *text*, not the decoded bytes; so do we, or
// its hashes would not verify.
const deriveKey = (password: string, salt: string): Promise<Buffer> =>
  // On worker threads at a low priority (scrypt-workers.ts): a sign-in never blocks or starves the
  // event loop.
  scryptOnWorkers(password.normalize('NFKC'), salt, KEY_BYTES, {
    N: COST,
    r: BLOCK_SIZE,
    p: PARALLELISM,
    maxmem: MAX_MEMORY,
  })

export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(SALT_BYTES).toString('hex')
  const key = await deriveKey(password, salt)
  return `${salt}:${key.toString('hex')}`
}

/** True when `password` matches `stored`; false for a wrong password or a malformed hash. */
export const verifyPassword = async (stored: string, password: string): Promise<boolean> => {
  const parts = stored.split(':')
  const [salt, key] = parts
  if (parts.length !== 2 || !salt || !key || !STORED_KEY.test(key)) return false
  const derived = await deriveKey(password, salt)
  return timingSafeEqual(derived, Buffer.from(key, 'hex'))
}

let dummyHash: string | undefined

/**
 * A well-formed hash that no password matches. Its key is random rather than derived, so making
 * it costs nothing and the first unknown-user sign-in is not slower than the later ones.
 */
export const dummyPasswordHash = (): string => {
  dummyHash ??= `${randomBytes(SALT_BYTES).toString('hex')}:${randomBytes(KEY_BYTES).toString('hex')}`
  return dummyHash
}

/**
 * Spends the same scrypt work as a real check, for a sign-in whose user does not exist (or has
 * no password), so response time does not reveal which accounts exist. Always false.
 */
export const burnPasswordCheck = async (password: string): Promise<false> => {
  await verifyPassword(dummyPasswordHash(), password)
  return false
}

/** Whether two typed passwords are the same password, as hashing sees them (NFKC). */
export const samePassword = (a: string, b: string): boolean => a.normalize('NFKC') === b.normalize('NFKC')
