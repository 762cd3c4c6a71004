/// Signs up the benchmark's users over HTTP and keeps each one's session cookie.

import { randomBytes } from 'node:crypto'

const SESSION_COOKIE = 'better-auth.session_token'
const PROGRESS_EVERY_MS = 5_000

export const BENCH_PASSWORD = 'bench-password-0123456789'

/** `bearer`: the signed token from `set-auth-token`, for `Authorization: Bearer`. */
export type BenchUser = { email: string; cookie: string; bearer: string }

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

const signUp = async (baseUrl: string, email: string): Promise<BenchUser> => {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: signUpBody(email),
  })
  const text = await response.text()
  const cookie = sessionCookieOf(response)
  const bearer = response.headers.get('set-auth-token')
  if (!response.ok || !cookie || !bearer)
    throw new Error(`sign-up of ${email} failed: ${response.status} ${text}`)
  return { email, cookie, bearer }
}

export const seedUsers = async (
  baseUrl: string,
  options: { count: number; concurrency: number; email: (n: number) => string },
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
