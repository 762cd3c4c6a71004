/// SCIM 2.0 reads (issue 36) on both servers: users provisioned into the bench's SCIM connection
/// through `POST /scim/v2/Users` with the run's bearer token (bench/features-config.ts: the same
/// static connection on both), then `GET /scim/v2/Users?filter=userName eq "…"` (right: exactly that
/// user) and a list page of 50 (right: 50 users and the total) at c16. On Tessera the connection
/// provisions into an organization, created first by a seeded user as its owner; better-auth's
/// plugin takes the same name as an opaque provisioning domain and has no organization to create.

import { BENCH_SCIM_ORGANIZATION, BENCH_SCIM_TOKEN } from './features-config.js'
import type { ScenarioSpec, Shot, Timing } from './load.js'
import { inParallel } from './parallel.js'
import type { BenchUser } from './seed.js'
import { isRecord, JSON_HEADERS, parse, rotate } from './shots.js'

/** Users provisioned; `BENCH_SCIM_USERS` changes it (issue 36's target is over 10,000). */
export const SCIM_USERS_DEFAULT = 200
const PAGE = 50
const SEED_CONCURRENCY = 8
const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const SCIM_HEADERS = { authorization: `Bearer ${BENCH_SCIM_TOKEN}` }

export type ScimDirectory = { userNames: string[] }

/** Tessera's connection names an organization by slug; better-auth has no such route (404). */
const createOrganization = async (baseUrl: string, owner: BenchUser) => {
  const response = await fetch(`${baseUrl}/api/auth/organization/create`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, origin: new URL(baseUrl).origin, cookie: owner.cookie },
    body: JSON.stringify({ name: 'Bench SCIM', slug: BENCH_SCIM_ORGANIZATION }),
  })
  if (!response.ok && response.status !== 404)
    throw new Error(`organization/create for SCIM failed: ${response.status} ${await response.text()}`)
}

const provision = async (baseUrl: string, userName: string, n: number) => {
  const response = await fetch(`${baseUrl}/api/auth/scim/v2/Users`, {
    method: 'POST',
    headers: { 'content-type': 'application/scim+json', ...SCIM_HEADERS },
    body: JSON.stringify({
      schemas: [CORE_USER],
      userName,
      externalId: `bench-${n}`,
      name: { givenName: 'Bench', familyName: `User ${n}` },
      emails: [{ value: userName, primary: true }],
      active: true,
    }),
  })
  if (response.status !== 201)
    throw new Error(`SCIM create of ${userName} failed: ${response.status} ${await response.text()}`)
}

export const seedScimDirectory = async (
  baseUrl: string,
  owner: BenchUser | undefined,
  count: number,
  email: (n: number) => string,
): Promise<ScimDirectory> => {
  if (!owner) throw new Error('the SCIM scenarios need one seeded user')
  const started = Date.now()
  await createOrganization(baseUrl, owner)
  const userNames = Array.from({ length: count }, (_, n) => email(n).toLowerCase())
  await inParallel(
    userNames.map((userName, n) => ({ userName, n })),
    SEED_CONCURRENCY,
    ({ userName, n }) => provision(baseUrl, userName, n),
  )
  console.log(`  provisioned ${count} SCIM users in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return { userNames }
}

const listOf = (body: string) => {
  const value = parse(body)
  return isRecord(value) && Array.isArray(value.Resources) && typeof value.totalResults === 'number'
    ? { total: value.totalResults, resources: value.Resources as unknown[] }
    : undefined
}

const filterShots = (userNames: readonly string[]) => {
  const next = rotate(userNames)
  return (): Shot => {
    const userName = next()
    return {
      kind: 'scim/Users filter',
      method: 'GET',
      path: `/api/auth/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`,
      headers: SCIM_HEADERS,
      isCorrect: (body) => {
        const list = listOf(body)
        const [only] = list?.resources ?? []
        return list?.total === 1 && isRecord(only) && only.userName === userName
      },
    }
  }
}

const listShots = (count: number) => (): Shot => ({
  kind: 'scim/Users list',
  method: 'GET',
  path: `/api/auth/scim/v2/Users?startIndex=1&count=${PAGE}`,
  headers: SCIM_HEADERS,
  isCorrect: (body) => {
    const list = listOf(body)
    return (
      list !== undefined &&
      list.total >= count &&
      list.resources.length === Math.min(PAGE, count) &&
      list.resources.every((user) => isRecord(user) && typeof user.userName === 'string')
    )
  },
})

export const scimScenarios = ({ userNames }: ScimDirectory, timing: Timing): ScenarioSpec[] => [
  { name: 'scim/Users filter c16', connections: 16, ...timing, next: filterShots(userNames) },
  { name: 'scim/Users list c16', connections: 16, ...timing, next: listShots(userNames.length) },
]
