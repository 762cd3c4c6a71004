/// The benchmark's scenarios (issue 2 section 7, issues 8, 9, 12 and 14) and the requests each one
/// sends; the organization scenarios are in bench/organizations.ts.

import { BENCH_SERVER_KEY, type BenchApiKeys, SERVER_KEY_HEADER } from './api-keys.js'
import type { ScenarioSpec, Shot, Timing } from './load.js'
import type { MixedOpenRates } from './password-capacity.js'
import { type BenchUser, signInBody, signUpBody } from './seed.js'
import { isRecord, JSON_HEADERS, parse, rotate } from './shots.js'

const MIXED_SIGN_IN_SHARE = 0.1
/**
 * The open-loop mix (issue 8): the same 10% of password work as `mixed c64`, arriving at rates set
 * from this machine's password checks a second (bench/password-capacity.ts), which both servers
 * serve without a growing queue.
 */
export const MIXED_OPEN = 'mixed open'
/** list-sessions: users with this many sessions each (issue 8), and how many such users. */
/**
 * The password scenarios' targets are ratios near 1 (issue 8: at least 0.97 of better-auth's rate).
 * At ten answers a second one 10 s window counts about a hundred, and the two servers' windows
 * minutes apart meet a machine whose speed drifts: windows taken in pairs, A B B A A B…, bring the
 * error of a ratio down to where the target can be told. Three pairs still left single pairs from
 * 0.91 to 1.05 within one run, so five.
 */
const PASSWORD_ROUNDS = 5

export const LIST_SESSIONS_PER_USER = 20
export const LIST_SESSIONS_USERS = 8

export type ScenarioSettings = {
  users: readonly BenchUser[]
  durationSeconds: number
  warmupSeconds: number
  /** A run-unique email for the n-th sign-up of the sign-up scenario. */
  email(label: string, n: number): string
}

const userEmailOf = (value: unknown): unknown =>
  isRecord(value) && isRecord(value.user) ? value.user.email : undefined

/** A session for exactly this user, so a server answering `null` or someone else fails. */
const hasSessionOf = (email: string) => (body: string) => {
  const value = parse(body)
  return isRecord(value) && isRecord(value.session) && userEmailOf(value) === email
}

const hasTokenFor = (email: string) => (body: string) => {
  const value = parse(body)
  return isRecord(value) && typeof value.token === 'string' && userEmailOf(value) === email
}

/** The payload of a compact JWT, or undefined for anything else. */
const jwtPayload = (token: unknown): unknown => {
  if (typeof token !== 'string') return undefined
  const [, payload] = token.split('.')
  return payload === undefined ? undefined : parse(Buffer.from(payload, 'base64url').toString('utf8'))
}

const isJwtFor = (email: string, token: unknown) => {
  const payload = jwtPayload(token)
  return isRecord(payload) && payload.email === email && typeof payload.sub === 'string'
}

/** The session, and a JWT for the same user in `set-auth-jwt`. */
const hasSessionAndJwtOf = (email: string) => (body: string, headers: Record<string, string>) =>
  hasSessionOf(email)(body) && isJwtFor(email, headers['set-auth-jwt'])

const hasJwtFor = (email: string) => (body: string) => {
  const value = parse(body)
  return isRecord(value) && isJwtFor(email, value.token)
}

/** A GET for each request, rotating over the users; `request` names what to send and check. */
const getShots =
  (kind: Shot['kind'], path: string, request: (user: BenchUser) => Pick<Shot, 'headers' | 'isCorrect'>) =>
  (users: readonly BenchUser[]) => {
    const nextUser = rotate(users)
    return (): Shot => ({ kind, method: 'GET', path, ...request(nextUser()) })
  }

const getSessionShots = getShots('get-session', '/api/auth/get-session', (user) => ({
  headers: { cookie: user.cookie },
  isCorrect: hasSessionOf(user.email),
}))

/** get-session with JWTs on (the default): each answer also carries a token for its user. */
const getSessionWithJwtShots = getShots('get-session', '/api/auth/get-session', (user) => ({
  headers: { cookie: user.cookie },
  isCorrect: hasSessionAndJwtOf(user.email),
}))

const tokenShots = getShots('token', '/api/auth/token', (user) => ({
  headers: { cookie: user.cookie },
  isCorrect: hasJwtFor(user.email),
}))

/** get-session in bearer mode: the signed token from `set-auth-token`, no cookie. */
const getSessionBearerShots = getShots('get-session', '/api/auth/get-session', (user) => ({
  headers: { authorization: `Bearer ${user.bearer}` },
  isCorrect: hasSessionOf(user.email),
}))

const signInShots = (users: readonly BenchUser[]) => {
  const nextUser = rotate(users)
  return (): Shot => {
    const { email } = nextUser()
    return {
      kind: 'sign-in',
      method: 'POST',
      path: '/api/auth/sign-in/email',
      headers: JSON_HEADERS,
      body: signInBody(email),
      isCorrect: hasTokenFor(email),
    }
  }
}

const signUpShots = (email: (n: number) => string) => {
  let n = 0
  return (): Shot => {
    const address = email(n++)
    return {
      kind: 'sign-up',
      method: 'POST',
      path: '/api/auth/sign-up/email',
      headers: JSON_HEADERS,
      body: signUpBody(address),
      isCorrect: hasTokenFor(address),
    }
  }
}

/** A backend verifying its clients' keys, rotating over them; only `valid: true` is right. */
const verifyShots = (keys: readonly string[]) => {
  const nextKey = rotate(keys)
  return (): Shot => ({
    kind: 'api-key/verify',
    method: 'POST',
    path: '/api/auth/api-key/verify',
    headers: { ...JSON_HEADERS, [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
    fromServer: true,
    body: JSON.stringify({ key: nextKey() }),
    isCorrect: (body) => {
      const value = parse(body)
      return isRecord(value) && value.valid === true
    },
  })
}

const mixedShots = (users: readonly BenchUser[]) => {
  const getSession = getSessionShots(users)
  const signIn = signInShots(users)
  return (): Shot => (Math.random() < MIXED_SIGN_IN_SHARE ? signIn() : getSession())
}

/** The scenarios run against Tessera and better-auth alike (issue 2 section 7, issue 8). */
export const sharedScenarios = (
  settings: ScenarioSettings & {
    /** Arrivals a second of each kind in the open-loop mix. */
    mixedOpen: MixedOpenRates
  },
): ScenarioSpec[] => {
  const { users, durationSeconds, warmupSeconds } = settings
  const timing = { durationSeconds, warmupSeconds }
  return [
    ...[1, 16, 64].map((connections) => ({
      name: `get-session c${connections}`,
      connections,
      ...timing,
      next: getSessionShots(users),
    })),
    // Issue 9: bearer mode on the hot path (better-auth with its bearer plugin).
    { name: 'get-session bearer c16', connections: 16, ...timing, next: getSessionBearerShots(users) },
    ...[4, 16].map((connections) => ({
      name: `sign-in c${connections}`,
      connections,
      ...timing,
      rounds: PASSWORD_ROUNDS,
      next: signInShots(users),
    })),
    {
      name: 'sign-up c16',
      connections: 16,
      ...timing,
      rounds: PASSWORD_ROUNDS,
      next: signUpShots((n) => settings.email('signup', n)),
    },
    { name: 'mixed c64', connections: 64, ...timing, next: mixedShots(users) },
    // The same mix offered at fixed rates (bench/open-loop.ts): in the closed loop above, the server
    // quicker at get-session has more of its 64 connections waiting on sign-ins, so each waits longer.
    {
      name: MIXED_OPEN,
      ...timing,
      arrivals: [
        { perSecond: settings.mixedOpen.getSession, next: getSessionShots(users) },
        { perSecond: settings.mixedOpen.signIn, next: signInShots(users) },
      ],
    },
  ]
}

/** Scenarios for Tessera's own features, over the seeded users alone. */
export const tesseraScenarios = (settings: ScenarioSettings): ScenarioSpec[] => {
  const { users, durationSeconds, warmupSeconds } = settings
  const timing = { durationSeconds, warmupSeconds }
  return [
    // Issue 9: the JWT on the hot path.
    { name: 'get-session+jwt c16', connections: 16, ...timing, next: getSessionWithJwtShots(users) },
    { name: 'token c16', connections: 16, ...timing, next: tokenShots(users) },
    // Issue 14: an operator's search in the user directory (through the server API's key).
    { name: 'admin/list-users search c16', connections: 16, ...timing, next: listUsersShots(users) },
  ]
}

/**
 * list-sessions for users with LIST_SESSIONS_PER_USER sessions each (issue 8): right when the
 * answer holds exactly that many sessions, all of that user.
 */
const listSessionsShots = (users: readonly BenchUser[]) =>
  getShots('list-sessions', '/api/auth/list-sessions', (user) => ({
    headers: { cookie: user.cookie },
    isCorrect: (body) => {
      const value = parse(body)
      return (
        Array.isArray(value) &&
        value.length === LIST_SESSIONS_PER_USER &&
        value.every((session) => isRecord(session) && session.userId === user.id)
      )
    },
  }))(users)

export const listSessionsScenarios = (users: readonly BenchUser[], timing: Timing): ScenarioSpec[] => [
  { name: 'list-sessions c16', connections: 16, ...timing, next: listSessionsShots(users) },
]

/**
 * list-users searching a part of a seeded address (contains, any case), first page with the total;
 * right when the user searched for is on the page and counted.
 */
const listUsersShots = (users: readonly BenchUser[]) => {
  const nextUser = rotate(users)
  return (): Shot => {
    const { email } = nextUser()
    const part = email.slice(0, email.indexOf('@'))
    return {
      kind: 'admin/list-users',
      method: 'GET',
      path: `/api/auth/admin/list-users?searchValue=${encodeURIComponent(part.toUpperCase())}&limit=20`,
      headers: { [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
      isCorrect: (body) => {
        const value = parse(body)
        return (
          isRecord(value) &&
          Array.isArray(value.users) &&
          typeof value.total === 'number' &&
          value.total >= 1 &&
          value.users.some((user) => isRecord(user) && user.email === email)
        )
      },
    }
  }
}

/** Issue 12: API-key verification over the server API, with and without a usage limit. */
export const apiKeyScenarios = (keys: BenchApiKeys, timing: Timing): ScenarioSpec[] =>
  [16, 64].flatMap((connections) => [
    { name: `api-key/verify c${connections}`, connections, ...timing, next: verifyShots(keys.unlimited) },
    {
      name: `api-key/verify limited c${connections}`,
      connections,
      ...timing,
      next: verifyShots(keys.limited),
    },
  ])
