/// A whole passkey sign-in (issue 33) on both servers: `GET /passkey/generate-authenticate-options`
/// without a session, as the sign-in page asks (right: a challenge and its cookie), then at once on
/// the next free connection `POST /passkey/verify-authentication` with that cookie and an assertion
/// the harness's software authenticator signs over the challenge (bench/software-authenticator.ts, the tests' own)
/// (right: a session for the passkey's owner). Each seeded user first registers a passkey through
/// the public routes (generate-register-options, verify-registration with an attestation of fmt
/// "none"). The verify rate is the rate of complete sign-ins.
///
/// The authenticator counts its signatures, as a security key does, and both servers refuse a
/// counter that does not go up: the sign-ins rotate over PASSKEY_USERS credentials, many more than
/// the connections, so two assertions of one credential are never in flight at once.

import { cookieHeaderOf } from './cookies.js'
import type { ClosedLoopSpec, ScenarioSpec, Shot, Timing } from './load.js'
import { inParallel } from './parallel.js'
import type { BenchUser } from './seed.js'
import { isRecord, JSON_HEADERS, parse, rotate } from './shots.js'
import { type Credential, softwareAuthenticator } from './software-authenticator.js'

/** Users who register a passkey: twice the 16 connections, so one credential is never in flight twice. */
export const PASSKEY_USERS = 32
const SEED_CONCURRENCY = 8

export type PasskeyUser = { id: string; credential: Credential }
/** The relying party as the browser sees it: the id the keys are scoped to, and the page's origin. */
export type RelyingPartyView = { rpId: string; origin: string }
export type PasskeySetup = { rp: RelyingPartyView; users: PasskeyUser[] }

const relyingPartyOf = (baseUrl: string): RelyingPartyView => {
  const url = new URL(baseUrl)
  return { rpId: url.hostname, origin: url.origin }
}

const failed = async (what: string, response: Response) =>
  new Error(`${what} for the passkey scenario failed: ${response.status} ${await response.text()}`)

/** Adds a passkey for a signed-in user as a browser would. */
const registerPasskey = async (baseUrl: string, rp: RelyingPartyView, user: BenchUser) => {
  const optionsResponse = await fetch(`${baseUrl}/api/auth/passkey/generate-register-options`, {
    headers: { cookie: user.cookie },
  })
  if (!optionsResponse.ok) throw await failed('generate-register-options', optionsResponse)
  const options = (await optionsResponse.json()) as { challenge: string }
  const challengeCookie = cookieHeaderOf(optionsResponse.headers.getSetCookie())
  const { credential, response: attestation } = softwareAuthenticator(rp).create(options)
  const response = await fetch(`${baseUrl}/api/auth/passkey/verify-registration`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, origin: rp.origin, cookie: `${user.cookie}; ${challengeCookie}` },
    body: JSON.stringify({ response: attestation, name: 'bench' }),
  })
  if (!response.ok) throw await failed('verify-registration', response)
  return { id: user.id, credential }
}

export const seedPasskeys = async (baseUrl: string, users: readonly BenchUser[]): Promise<PasskeySetup> => {
  const rp = relyingPartyOf(baseUrl)
  const started = Date.now()
  const registered = await inParallel(users.slice(0, PASSKEY_USERS), SEED_CONCURRENCY, (user) =>
    registerPasskey(baseUrl, rp, user),
  )
  console.log(`  registered ${registered.length} passkeys in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return { rp, users: registered }
}

const isSessionOf = (userId: string) => (body: string) => {
  const value = parse(body)
  return isRecord(value) && isRecord(value.session) && isRecord(value.user) && value.user.id === userId
}

/**
 * Options then verification: each right first step queues its second step, signed by the next
 * credential in turn, which the next request (on the connection just freed) sends.
 */
const passkeySignInShots = ({ rp, users }: PasskeySetup) => {
  const nextUser = rotate(users)
  const authenticator = softwareAuthenticator(rp)
  const secondSteps: Shot[] = []
  const verifyShot = (challenge: string, cookie: string): Shot => {
    const user = nextUser()
    return {
      kind: 'passkey/verify-authentication',
      method: 'POST',
      path: '/api/auth/passkey/verify-authentication',
      headers: { ...JSON_HEADERS, cookie },
      body: JSON.stringify({ response: authenticator.get({ challenge }, {}, user.credential) }),
      isCorrect: isSessionOf(user.id),
    }
  }
  const optionsShot: Shot = {
    kind: 'passkey/generate-authenticate-options',
    method: 'GET',
    path: '/api/auth/passkey/generate-authenticate-options',
    headers: {},
    isCorrect: (body, headers) => {
      const value = parse(body)
      const cookie = cookieHeaderOf(headers['set-cookie'])
      if (!isRecord(value) || typeof value.challenge !== 'string' || !cookie.includes('passkey')) return false
      secondSteps.push(verifyShot(value.challenge, cookie))
      return true
    },
  }
  return (): Shot => secondSteps.shift() ?? optionsShot
}

export const passkeySignInScenarios = (setup: PasskeySetup, timing: Timing): ScenarioSpec[] => [
  {
    name: 'passkey sign-in c16',
    connections: 16,
    ...timing,
    next: passkeySignInShots(setup),
  } satisfies ClosedLoopSpec,
]
