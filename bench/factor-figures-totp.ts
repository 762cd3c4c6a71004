/// `verify-totp alone c16` (issue 33: at least 2,000/s with p99 under 15 ms on PostgreSQL): only the
/// second step of a TOTP sign-in, `POST /two-factor/verify-totp` with a person's two-factor cookie
/// and their current code, right when it answers a session token for that person. Tessera accepts
/// a code once per person per 30 s step and each cookie names one pending sign-in, so every request
/// needs a person of its own with a sign-in waiting: BENCH_TOTP_ALONE_USERS (30,000) of them, more
/// than a scenario (warm-up, window and tail, 13 s) can use at 2,000/s. Password hashing would take
/// hours to make them, so they are written straight into each server's database, PostgreSQL only:
/// on Tessera by copying one person's events through the event store's append path
/// (bench/factor-figures-totp-tessera.ts), on better-auth through its own adapter
/// (bench/factor-figures-totp-better-auth.ts). On PGlite the server process owns the database, and
/// the scenario is skipped.
///
/// Each person is used once. When all have been, the next request reuses the first (Tessera refuses
/// it, its challenge spent), and the table shows wrong answers: raise BENCH_TOTP_ALONE_USERS.

import type { ClosedLoopSpec, ScenarioSpec, Shot, Timing } from './load.js'
import { isRecord, JSON_HEADERS, parse } from './shots.js'
import { hotp, timeStep } from './totp.js'

export const TOTP_ALONE_USERS_DEFAULT = 30_000

/** A person waiting on their second step: whose, and the cookie their browser holds. */
export type SecondStepPerson = { userId: string; cookie: string }

/** What was seeded: the TOTP key (one for all), the step last accepted, the people. */
export type SeededSecondSteps = { key: Buffer; lastStep: number; people: SecondStepPerson[] }

export const NO_SECOND_STEPS: SeededSecondSteps = { key: Buffer.alloc(0), lastStep: 0, people: [] }
/** Stands in before seeding, so that the scenario's name is known. */
export const UNSEEDED_SECOND_STEPS: SeededSecondSteps = {
  ...NO_SECOND_STEPS,
  people: [{ userId: '', cookie: '' }],
}

const isTokenOf = (userId: string) => (body: string) => {
  const value = parse(body)
  return (
    isRecord(value) && typeof value.token === 'string' && isRecord(value.user) && value.user.id === userId
  )
}

const verifyShots = ({ key, people }: SeededSecondSteps) => {
  let next = 0
  return (): Shot => {
    const person = people[next++ % people.length] as SecondStepPerson
    return {
      kind: 'two-factor/verify-totp',
      method: 'POST',
      path: '/api/auth/two-factor/verify-totp',
      headers: { ...JSON_HEADERS, cookie: person.cookie },
      body: JSON.stringify({ code: hotp(key, timeStep(Date.now())) }),
      isCorrect: isTokenOf(person.userId),
    }
  }
}

export const verifyTotpAloneScenarios = (seeded: SeededSecondSteps, timing: Timing): ScenarioSpec[] =>
  seeded.people.length === 0
    ? []
    : [
        {
          name: 'verify-totp alone c16',
          connections: 16,
          ...timing,
          next: verifyShots(seeded),
        } satisfies ClosedLoopSpec,
      ]

/** Waits for the step after the one last accepted: its code would be refused as a replay. */
export const afterStep = async (lastStep: number): Promise<void> => {
  while (timeStep(Date.now()) <= lastStep) await new Promise((resolve) => setTimeout(resolve, 500))
}
