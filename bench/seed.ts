/// Signs up the benchmark's users over HTTP and keeps each one's session cookie; signs some of them
/// in again for the list-sessions scenario.

import { randomBytes } from 'node:crypto'
import { isRecord, JSON_HEADERS, parse } from './shots.js'

const SESSION_COOKIE = 'better-auth.session_token'
const PROGRESS_EVERY_MS = 5_000

export const BENCH_PASSWORD = 'bench-password-0123456789'

/** `bearer`: the signed token from `set-auth-token`, for `Authorization: Bearer`. */
export type BenchUser = { id: string; email: string; cookie: string; bearer: string }

/** Emails unique to one run, so a reused PostgreSQL database never reports duplicates. */
export const emailFactory = () => {
  const run = randomBytes(4).toString('hex')
  return (label: string, n: number) => `bench-${run}-${label}-${n}@example.com`
}

export const signUpBody = (email: string): string =>
  JSON.stringify({ name: 'Bench User', email, password: BENCH_PASSWORD })

export const signInBody = (email: string): string => JSON.stringify({ email, password: BENCH_PASSWORD })

const sessionCookieOf = (response: Response): string | undefined =>
  response.headers
    .getSetCookie()
    .map((header) => header.split(';', 1)[0] ?? '')
    .find((pair) => pair.startsWith(`${SESSION_COOKIE}=`))

const userIdIn = (text: string): string | undefined => {
  const body = parse(text)
  return isRecord(body) && isRecord(body.user) && typeof body.user.id === 'string' ? body.user.id : undefined
}

// With the page's Origin, as from a browser: better-auth refuses a sign-up or sign-in without one.
const post = (baseUrl: string, path: string, body: string) =>
  fetch(`${baseUrl}/api/auth${path}`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, origin: new URL(baseUrl).origin },
    body,
  })

const signUp = async (baseUrl: string, email: string): Promise<BenchUser> => {
  const response = await post(baseUrl, '/sign-up/email', signUpBody(email))
  const text = await response.text()
  const id = userIdIn(text)
  const cookie = sessionCookieOf(response)
  const bearer = response.headers.get('set-auth-token')
  if (!response.ok || !id || !cookie || !bearer)
    throw new Error(`sign-up of ${email} failed: ${response.status} ${text}`)
  return { id, email, cookie, bearer }
}

export const seedUsers = async (
  baseUrl: string,
  options: {
    count: number
    concurrency: number
    email: (n: number) => string
  },
): Promise<BenchUser[]> => {
  const users: BenchUser[] = new Array(options.count)
  const started = Date.now()
  let next = 0
  let done = 0
  let reportedAt = started
  const worker = async () => {
    while (next < options.count) {
      const n = next++
      users[n] = await signUp(baseUrl, options.email(n))
      done += 1
      if (Date.now() - reportedAt >= PROGRESS_EVERY_MS) {
        reportedAt = Date.now()
        const rate = done / ((reportedAt - started) / 1000)
        console.log(`  seeded ${done}/${options.count} users (${rate.toFixed(1)}/s)`)
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  const seconds = (Date.now() - started) / 1000
  console.log(
    `  seeded ${options.count} users in ${seconds.toFixed(1)} s (${(options.count / seconds).toFixed(1)}/s)`,
  )
  return users
}

/**
 * Signs each user in until they hold `sessions` sessions (the sign-up's and the new ones, each as
 * from a device of its own), for list-sessions.
 */
export const seedSessions = async (
  baseUrl: string,
  users: readonly BenchUser[],
  sessions: number,
  concurrency: number,
): Promise<void> => {
  const started = Date.now()
  const signIns = users.flatMap((user) => Array.from({ length: sessions - 1 }, () => user))
  let next = 0
  const worker = async () => {
    while (next < signIns.length) {
      const user = signIns[next++] as BenchUser
      const response = await post(baseUrl, '/sign-in/email', signInBody(user.email))
      const text = await response.text()
      if (!response.ok || userIdIn(text) !== user.id)
        throw new Error(`sign-in of ${user.email} failed: ${response.status} ${text}`)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  console.log(
    `  gave ${users.length} users ${sessions} sessions each in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  )
}
