/// SCIM 2.0 (issue 36) on both servers: a directory of 10,000 people provisioned into the bench's
/// SCIM connection through `POST /scim/v2/Users` with the run's bearer token (bench/features-config.ts:
/// the same static connection on both), then `GET /scim/v2/Users?filter=userName eq "…"` (right:
/// exactly that user), a list page of 50 (right: 50 users and the total) and `POST /scim/v2/Users` of
/// new people (right: 201 with that userName), each at c16, over that directory. On Tessera the connection
/// provisions into an organization, created first by a seeded user as its owner; better-auth's
/// plugin takes the same name as an opaque provisioning domain and has no organization to create.

import { BENCH_SCIM_ORGANIZATION, BENCH_SCIM_TOKEN } from './features-config.js'
import type { SeedTarget } from './groups.js'
import type { ScenarioSpec, Shot, Timing } from './load.js'
import { inParallel } from './parallel.js'
import type { BenchUser } from './seed.js'
import { isRecord, JSON_HEADERS, parse, rotate } from './shots.js'

/** Users provisioned; `BENCH_SCIM_USERS` changes it (issue 36's targets are over 10,000). */
export const SCIM_USERS_DEFAULT = 10_000
const PAGE = 50
/** As many in flight as the scenarios' own c16: the seed goes as fast as the create route serves. */
const SEED_CONCURRENCY = 16
const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const SCIM_HEADERS = { authorization: `Bearer ${BENCH_SCIM_TOKEN}` }
const SCIM_WRITE_HEADERS = { 'content-type': 'application/scim+json', ...SCIM_HEADERS }

export type ScimDirectory = {
  userNames: string[]
  /** A run-unique address for the n-th person the create scenario provisions. */
  newUserName(n: number): string
}

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

/** A SCIM User as an IdP sends one. */
const userBody = (userName: string, externalId: string, n: number) =>
  JSON.stringify({
    schemas: [CORE_USER],
    userName,
    externalId,
    name: { givenName: 'Bench', familyName: `User ${n}` },
    emails: [{ value: userName, primary: true }],
    active: true,
  })

/** A 503 (read models behind on a loaded machine) is retried, as IdPs' SCIM clients retry it. */
const SEED_ATTEMPTS = 5
let seedRetries = 0

const provision = async (baseUrl: string, userName: string, n: number) => {
  let response: Response
  let retried = false
  for (let attempt = 1; ; attempt++) {
    response = await fetch(`${baseUrl}/api/auth/scim/v2/Users`, {
      method: 'POST',
      headers: SCIM_WRITE_HEADERS,
      body: userBody(userName, `bench-${n}`, n),
    })
    if (response.status !== 503 || attempt >= SEED_ATTEMPTS) break
    seedRetries += 1
    retried = true
    await response.arrayBuffer()
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt))
  }
  // A retried create whose first try had committed before its 503 finds the person there: fine.
  if (response.status !== 201 && !(response.status === 409 && retried))
    throw new Error(`SCIM create of ${userName} failed: ${response.status} ${await response.text()}`)
}

export const seedScimDirectory = async (
  { baseUrl, users, email, notes }: SeedTarget,
  count: number,
): Promise<ScimDirectory> => {
  const [owner] = users
  if (!owner) throw new Error('the SCIM scenarios need one seeded user')
  const started = Date.now()
  seedRetries = 0
  await createOrganization(baseUrl, owner)
  const userNames = Array.from({ length: count }, (_, n) => email('scim', n).toLowerCase())
  await inParallel(
    userNames.map((userName, n) => ({ userName, n })),
    SEED_CONCURRENCY,
    ({ userName, n }) => provision(baseUrl, userName, n),
  )
  const seconds = (Date.now() - started) / 1000
  const line = `SCIM directory: ${count} people provisioned through POST /scim/v2/Users at c${SEED_CONCURRENCY} in ${seconds.toFixed(1)} s (${(count / seconds).toFixed(0)}/s; ${seedRetries} answers 503, retried)`
  console.log(`  ${line}`)
  notes.push(line)
  return { userNames, newUserName: (n) => email('scim-new', n).toLowerCase() }
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

/** New people, each a run-unique address: the directory grows by what the window creates. */
const createShots = (newUserName: (n: number) => string) => {
  let n = 0
  return (): Shot => {
    const userName = newUserName(n)
    const body = userBody(userName, `bench-new-${n}`, n)
    n += 1
    return {
      kind: 'scim/Users create',
      method: 'POST',
      path: '/api/auth/scim/v2/Users',
      headers: SCIM_WRITE_HEADERS,
      body,
      fromServer: true,
      isCorrect: (answer) => {
        const user = parse(answer)
        return isRecord(user) && user.userName === userName && typeof user.id === 'string'
      },
    }
  }
}

export const scimScenarios = ({ userNames, newUserName }: ScimDirectory, timing: Timing): ScenarioSpec[] => [
  { name: 'scim/Users filter c16', connections: 16, ...timing, next: filterShots(userNames) },
  { name: 'scim/Users list c16', connections: 16, ...timing, next: listShots(userNames.length) },
  // Last: it adds people, which the list's total need not count.
  { name: 'scim/Users create c16', connections: 16, ...timing, next: createShots(newUserName) },
]
