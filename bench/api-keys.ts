/// The API-key scenarios' setup (issue 12): the server key the benchmarked Tessera is started with,
/// and keys created for some of the seeded users over the server API, one set without a usage limit
/// and one with (a `remaining` far larger than a run can use, so every verification decrements it).
/// Both sets have the per-key rate limit off: it would refuse all but 10 verifications a day.

import { randomBytes } from 'node:crypto'
import type { BenchUser } from './seed.js'

/** Passed to the server as `SERVER_KEYS=bench=<key>`; new for every run. */
export const BENCH_SERVER_KEY = randomBytes(32).toString('base64url')
export const SERVER_KEY_HEADER = 'x-tessera-server-key'

const KEYS_PER_SET = 32
const LIMITED_REMAINING = 1_000_000_000

export type BenchApiKeys = { unlimited: string[]; limited: string[] }

const userIdOf = async (baseUrl: string, user: BenchUser): Promise<string> => {
  const response = await fetch(`${baseUrl}/api/auth/get-session`, { headers: { cookie: user.cookie } })
  const body = (await response.json()) as { user?: { id?: string } } | null
  if (!body?.user?.id) throw new Error(`get-session for ${user.email} failed: ${response.status}`)
  return body.user.id
}

const createKey = async (baseUrl: string, userId: string, limited: boolean): Promise<string> => {
  const response = await fetch(`${baseUrl}/api/auth/api-key/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
    body: JSON.stringify({
      userId,
      name: limited ? 'bench limited' : 'bench',
      rateLimitEnabled: false,
      ...(limited ? { remaining: LIMITED_REMAINING } : {}),
    }),
  })
  const body = (await response.json()) as { key?: string }
  if (!response.ok || typeof body.key !== 'string')
    throw new Error(`api-key/create failed: ${response.status} ${JSON.stringify(body)}`)
  return body.key
}

/** Keys spread over the first users (one row per key: no single row takes every update). */
export const seedApiKeys = async (baseUrl: string, users: readonly BenchUser[]): Promise<BenchApiKeys> => {
  const owners = users.slice(0, KEYS_PER_SET)
  if (owners.length === 0) return { unlimited: [], limited: [] }
  const ids = await Promise.all(owners.map((user) => userIdOf(baseUrl, user)))
  const unlimited = await Promise.all(ids.map((id) => createKey(baseUrl, id, false)))
  const limited = await Promise.all(ids.map((id) => createKey(baseUrl, id, true)))
  return { unlimited, limited }
}
