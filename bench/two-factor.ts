/// Sign-in with TOTP (issue 33): users with the authenticator factor on, set up through the public
/// routes (`/two-factor/enable` with the password, then a first `/two-factor/verify-totp`), then
/// both steps at c16: `/sign-in/email` answering `twoFactorRedirect` with the two-factor cookie, and
/// right after on the same connection `/two-factor/verify-totp` with that cookie and a code the
/// harness computes from the user's secret (bench/totp.ts); right when it answers a session for that
/// user.
///
/// Tessera accepts a TOTP code once per user: a code of a time step at or before the last one it
/// accepted is a replay. So each user signs in at most once per 30 s step: the scenario rotates
/// over users whose last step is behind the current one (better-auth, which accepts a code again,
/// gets the same sequence). Setup uses the previous step's code (inside both servers' window of one
/// step either side), so every user is free at once when the scenario starts.

import { cookieHeaderOf } from './cookies.js'
import type { ClosedLoopSpec, ScenarioSpec, Shot, Timing } from './load.js'
import { inParallel } from './parallel.js'
import { BENCH_PASSWORD, type BenchUser, seedUsers, signInBody } from './seed.js'
import { isRecord, JSON_HEADERS, parse } from './shots.js'
import { hotp, secretOfUri, timeStep } from './totp.js'

/**
 * Users with the factor on. A quiet 2-core machine signs in some 30 a second, and a scenario (warm-up,
 * window, tail) lasts 13 s: some 400 sign-ins, which may all fall in one step. More users than
 * that; `BENCH_TOTP_USERS` changes it.
 */
export const TOTP_USERS_DEFAULT = 480
const SEED_CONCURRENCY = 16

export type TotpUser = BenchUser & { key: Buffer; lastStep: number }

const post = async (baseUrl: string, path: string, body: unknown, cookie: string) => {
  const response = await fetch(`${baseUrl}/api/auth${path}`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, origin: new URL(baseUrl).origin, cookie },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${path} for the TOTP scenario failed: ${response.status} ${text}`)
  return parse(text)
}

/** Turns the factor on as a person does: enable with the password, then confirm with a first code. */
const enableTotp = async (baseUrl: string, user: BenchUser): Promise<TotpUser> => {
  const enabled = await post(baseUrl, '/two-factor/enable', { password: BENCH_PASSWORD }, user.cookie)
  if (!isRecord(enabled) || typeof enabled.totpURI !== 'string')
    throw new Error(`/two-factor/enable answered no totpURI: ${JSON.stringify(enabled)}`)
  const key = secretOfUri(enabled.totpURI)
  const step = (await stepWithSlack()) - 1
  await post(baseUrl, '/two-factor/verify-totp', { code: hotp(key, step) }, user.cookie)
  return { ...user, key, lastStep: step }
}

const STEP_MS = 30_000
/** On a loaded machine an answer may take seconds: the previous step's code must not age out. */
const SLACK_MS = 8_000

/** The current step, after waiting for the next one when this one ends within SLACK_MS. */
const stepWithSlack = async (): Promise<number> => {
  const left = STEP_MS - (Date.now() % STEP_MS)
  if (left < SLACK_MS) await new Promise((resolve) => setTimeout(resolve, left + 50))
  return timeStep(Date.now())
}

export const seedTotpUsers = async (
  baseUrl: string,
  count: number,
  email: (n: number) => string,
): Promise<TotpUser[]> => {
  const users = await seedUsers(baseUrl, { count, concurrency: SEED_CONCURRENCY, email })
  const started = Date.now()
  const ready = await inParallel(users, SEED_CONCURRENCY, (user) => enableTotp(baseUrl, user))
  console.log(`  turned TOTP on for ${ready.length} users in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return ready
}

/**
 * The next user whose last accepted step is behind `step`, round and round; when every one signed
 * in during this step, the next in turn anyway (Tessera will refuse it as a replay, and the
 * scenario reports it: more users are needed).
 */
export const nextFreeUser = <U extends { lastStep: number }>(users: readonly U[]) => {
  let index = 0
  return (step: number): U => {
    for (let tried = 0; tried < users.length; tried++) {
      const user = users[index++ % users.length]
      if (user && user.lastStep < step) return user
    }
    const user = users[index++ % users.length]
    if (!user) throw new Error('no TOTP user to sign in')
    return user
  }
}

const isSessionOf = (user: BenchUser) => (body: string) => {
  const value = parse(body)
  return (
    isRecord(value) && typeof value.token === 'string' && isRecord(value.user) && value.user.id === user.id
  )
}

/**
 * Sign-in then verify-totp: each right first step queues its second step, which the next request
 * (on the connection just freed) sends.
 */
const totpSignInShots = (users: readonly TotpUser[]) => {
  const nextUser = nextFreeUser(users)
  const secondSteps: Shot[] = []
  const verifyShot = (user: TotpUser, cookie: string): Shot => {
    const step = timeStep(Date.now())
    user.lastStep = step
    return {
      kind: 'two-factor/verify-totp',
      method: 'POST',
      path: '/api/auth/two-factor/verify-totp',
      headers: { ...JSON_HEADERS, cookie },
      body: JSON.stringify({ code: hotp(user.key, step) }),
      isCorrect: isSessionOf(user),
    }
  }
  const signInShot = (user: TotpUser): Shot => ({
    kind: 'two-factor/sign-in',
    method: 'POST',
    path: '/api/auth/sign-in/email',
    headers: JSON_HEADERS,
    body: signInBody(user.email),
    isCorrect: (body, headers) => {
      const value = parse(body)
      const cookie = cookieHeaderOf(headers['set-cookie'])
      if (!isRecord(value) || value.twoFactorRedirect !== true || !cookie.includes('two_factor')) return false
      secondSteps.push(verifyShot(user, cookie))
      return true
    },
  })
  return (): Shot => secondSteps.shift() ?? signInShot(nextUser(timeStep(Date.now())))
}

export const twoFactorScenarios = (users: readonly TotpUser[], timing: Timing): ScenarioSpec[] => [
  {
    name: 'two-factor sign-in c16',
    connections: 16,
    ...timing,
    next: totpSignInShots(users),
  } satisfies ClosedLoopSpec,
]
