/// Fault 1: 1,000 sign-ups at once on PostgreSQL, 50 of them for an address another one in the
/// storm also uses. Exactly one of each pair wins: 950 users, 50 × 422, and the log holds nothing
/// for a loser (no event, no stream, no claim).
///
/// Every sign-up hashes its password with scrypt (N=16384, r=16: better-auth's parameters, fixed
/// so hashes stay interchangeable; there is no cheaper test setting), so on two cores this test is
/// scrypt-bound: its duration is printed.

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_CLAIM_SCOPE } from '../../domain/user/user.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { printFigures, seconds, tally } from './support.js'

// FAULT_SIGNUPS scales the storm down (duplicates stay 1 in 20) where scrypt is too slow to wait for.
const SIGNUPS = Number(process.env.FAULT_SIGNUPS ?? 1000)
const DUPLICATES = Math.round(SIGNUPS / 20)
const USERS = SIGNUPS - DUPLICATES

describe(`a storm of ${SIGNUPS} concurrent sign-ups with ${DUPLICATES} duplicate emails (postgres)`, () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ kind: 'postgres' })
  })
  afterAll(() => tessera.cleanup())

  it(`creates ${USERS} users, refuses ${DUPLICATES} with 422, and leaves no orphan event`, async () => {
    const emails = Array.from({ length: USERS }, (_, i) => `storm-${i}@example.com`)
    // The duplicates are spread through the storm, each racing the sign-up it copies.
    const requests = [...emails, ...emails.slice(0, DUPLICATES)]
      .map((email, i) => ({ email, order: (i * 7919) % (USERS + DUPLICATES) }))
      .sort((a, b) => a.order - b.order)
    const started = Date.now()
    const answers = await Promise.all(
      requests.map(({ email }) =>
        tessera.api.request('POST', '/sign-up/email', {
          name: 'Storm',
          email,
          password: 'correct horse battery',
        }),
      ),
    )
    const elapsed = Date.now() - started
    const statuses = tally(answers.map((answer) => answer.status))
    const refused = answers.filter((answer) => answer.status === 422)

    const count = async (query: ReturnType<typeof sql<{ n: string }>>) =>
      Number((await query.execute(tessera.ctx.db)).rows[0]?.n)
    const registered = await count(
      sql`select count(*) as n from tessera_events where type = 'user.registered'`,
    )
    const userStreams = await count(
      sql`select count(distinct stream_id) as n from tessera_events where stream_id like 'user-%'`,
    )
    // A user stream that does not start with its registration would be a loser's leftover.
    const orphanStreams = await count(sql`
      select count(*) as n from tessera_events e
      where e.stream_id like 'user-%' and e.stream_version = 1 and e.type <> 'user.registered'`)
    const claims = await count(
      sql`select count(*) as n from tessera_unique_claims where scope = ${EMAIL_CLAIM_SCOPE}`,
    )
    const users = await count(sql`select count(*) as n from users`)
    // Data keys are not events: a loser's key (made to seal its event before the claim failed) is
    // unreadable garbage, counted here so that it shows.
    const strayKeys = await count(sql`
      select count(*) as n from tessera_data_keys k
      where not exists (select 1 from tessera_events e where e.stream_id = 'user-' || k.subject)`)

    printFigures('sign-up storm', {
      requests: requests.length,
      statuses,
      seconds: seconds(elapsed),
      perSecond: Math.round((requests.length / elapsed) * 1000),
      users,
      registeredEvents: registered,
      emailClaims: claims,
      orphanStreams,
      strayDataKeys: strayKeys,
    })
    // A winner whose user the read models could not show within the read-your-writes bound (a
    // loaded machine) answers 503 READ_MODELS_BEHIND: created all the same, never a 422.
    const behind = answers.filter(
      (answer) => answer.status === 503 && (answer.json as { code?: string }).code === 'READ_MODELS_BEHIND',
    ).length
    expect({ ...statuses, 200: (statuses[200] ?? 0) + behind, 503: (statuses[503] ?? 0) - behind }).toEqual({
      200: USERS,
      422: DUPLICATES,
      503: 0,
    })
    expect(new Set(refused.map((answer) => (answer.json as { code: string }).code))).toEqual(
      new Set(['USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL']),
    )
    expect({ registered, userStreams, claims, users, orphanStreams }).toEqual({
      registered: USERS,
      userStreams: USERS,
      claims: USERS,
      users: USERS,
      orphanStreams: 0,
    })
  }, 900_000)
})
