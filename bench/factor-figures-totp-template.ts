/// The one person `verify-totp alone` copies on Tessera (bench/factor-figures-totp-tessera.ts): signed
/// up, TOTP turned on and confirmed, then signed in with the password up to the second step, all
/// through the public routes of the running server; answers the events that recorded about them.

import type { EventStore, RecordedEvent } from '../infra/event-store/event-store.js'
import { START } from '../infra/event-store/event-store.js'
import { cookieHeaderOf } from './cookies.js'
import { BENCH_PASSWORD, signInBody, signUpBody } from './seed.js'
import { isRecord, JSON_HEADERS, parse } from './shots.js'
import { hotp, secretOfUri, timeStep } from './totp.js'

const STEP_MS = 30_000
const SLACK_MS = 5_000
const TEMPLATE_EVENTS_LIMIT = 1_000

const post = async (baseUrl: string, path: string, body: string, cookie = '') => {
  const response = await fetch(`${baseUrl}/api/auth${path}`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, origin: baseUrl, cookie },
    body,
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${path} for the verify-totp template failed: ${response.status} ${text}`)
  return { body: parse(text), cookie: cookieHeaderOf(response.headers.getSetCookie()) }
}

/** The current step, after waiting for the next when this one ends too soon for a slow answer. */
const safeStep = async (): Promise<number> => {
  const left = STEP_MS - (Date.now() % STEP_MS)
  if (left < SLACK_MS) await new Promise((resolve) => setTimeout(resolve, left + 50))
  return timeStep(Date.now())
}

/** Whether an event is about this person: on one of their streams, or naming them. */
const isAbout = (userId: string) => (event: RecordedEvent) =>
  event.streamId.includes(userId) || JSON.stringify(event.data).includes(userId)

export type TemplatePerson = { userId: string; key: Buffer; step: number; events: RecordedEvent[] }

export const templateSignIn = async (
  baseUrl: string,
  store: EventStore,
  email: string,
): Promise<TemplatePerson> => {
  const before = (await store.head(START, 0)).position
  const signUp = await post(baseUrl, '/sign-up/email', signUpBody(email))
  const userId = isRecord(signUp.body) && isRecord(signUp.body.user) ? String(signUp.body.user.id) : ''
  const enabled = await post(
    baseUrl,
    '/two-factor/enable',
    JSON.stringify({ password: BENCH_PASSWORD }),
    signUp.cookie,
  )
  if (!isRecord(enabled.body) || typeof enabled.body.totpURI !== 'string')
    throw new Error(`/two-factor/enable answered no totpURI: ${JSON.stringify(enabled.body)}`)
  const key = secretOfUri(enabled.body.totpURI)
  const step = await safeStep()
  await post(baseUrl, '/two-factor/verify-totp', JSON.stringify({ code: hotp(key, step) }), signUp.cookie)
  const signIn = await post(baseUrl, '/sign-in/email', signInBody(email))
  if (!isRecord(signIn.body) || signIn.body.twoFactorRedirect !== true)
    throw new Error(`the template's sign-in did not stop at the second step: ${JSON.stringify(signIn.body)}`)
  const events = (await store.readAll(before, TEMPLATE_EVENTS_LIMIT)).filter(isAbout(userId))
  if (!events.some((event) => event.type === 'two-factor.challenge-started'))
    throw new Error('the template sign-in recorded no pending second step')
  return { userId, key, step, events }
}
