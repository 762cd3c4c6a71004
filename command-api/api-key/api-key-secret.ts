/// A new API key and how it is stored: better-auth's shape (the prefix, then 64 random letters a-z
/// and A-Z, about 365 bits) and hash (SHA-256, base64url without padding), so keys and hashes
/// carried over from better-auth keep working. Only the hash, the first characters and the last four are kept.

import { createHash } from 'node:crypto'
import { API_KEY_LIMITS } from '../../domain/api-key/api-key-rules.js'
import { randomToken } from '../../infra/crypto/tokens.js'

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'

export const hashApiKey = (key: string): string =>
  createHash('sha256').update(key, 'utf8').digest('base64url')

/**
 * The key, its hash, and what is kept to tell keys apart in a list: the first characters (as
 * better-auth keeps them) and the last four (Tessera's; four of 64 random letters leave ample secret).
 */
export const newApiKey = (
  prefix: string | null,
): { key: string; keyHash: string; start: string; lastFour: string } => {
  const key = `${prefix ?? ''}${randomToken(API_KEY_LIMITS.keyLength, LETTERS)}`
  return {
    key,
    keyHash: hashApiKey(key),
    start: key.slice(0, API_KEY_LIMITS.startLength),
    lastFour: key.slice(-4),
  }
}
