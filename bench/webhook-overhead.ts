/// What webhooks cost the requests that make their events (issue 34: sign-up and get-session within
/// 5% of the same run without endpoints). In one run, in the order A B B A so that both pairs meet
/// about the same machine: get-session c16 and sign-up c16 before any endpoint exists, then the
/// endpoints created (bench/webhook-receiver.ts), sign-up c16 while each sign-up's `user.created`
/// and `session.created` go to every endpoint, then get-session c16. The sign-up scenario with
/// endpoints also reports its deliveries (`webhook delivery`): deliveries a second, and from each
/// sign-up's answer (its commit) to the receipt of its `user.created` at each endpoint, while sign-ups
/// run at their peak rate. The ratios go under the server's table.

import type { KindStats, MeasureWindow, ScenarioResult, ScenarioSpec, Shot, Timing } from './load.js'
import { runScenario } from './load.js'
import { type BenchUser, signUpBody } from './seed.js'
import { isRecord, JSON_HEADERS, parse, rotate } from './shots.js'
import {
  deliveryStats,
  ensureEndpoints,
  spanOf,
  type WebhookSetup,
  waitForDeliveries,
} from './webhook-figures.js'
import { arrivals } from './webhook-receiver.js'

const CONNECTIONS = 16
const TARGET_RATIO = 0.95

const emailOf = (value: unknown): unknown =>
  isRecord(value) && isRecord(value.user) ? value.user.email : undefined

const getSessionShots = (users: readonly BenchUser[]) => {
  const nextUser = rotate(users)
  return (): Shot => {
    const user = nextUser()
    return {
      kind: 'get-session',
      method: 'GET',
      path: '/api/auth/get-session',
      headers: { cookie: user.cookie },
      isCorrect: (body) => {
        const value = parse(body)
        return isRecord(value) && isRecord(value.session) && emailOf(value) === user.email
      },
    }
  }
}

/** Sign-ups of new addresses; `answered` hears each right answer with its address. */
const signUpShots = (email: (n: number) => string, answered: (email: string, at: number) => void) => {
  let n = 0
  return (): Shot => {
    const address = email(n++)
    return {
      kind: 'sign-up',
      method: 'POST',
      path: '/api/auth/sign-up/email',
      headers: JSON_HEADERS,
      body: signUpBody(address),
      isCorrect: (body) => {
        const value = parse(body)
        const right = isRecord(value) && typeof value.token === 'string' && emailOf(value) === address
        if (right) answered(address, performance.now())
        return right
      },
    }
  }
}

type Pair = { without?: KindStats; with?: KindStats }

/** The ratio line for a pair once both halves ran. */
const noteRatio = (setup: WebhookSetup, what: string, pair: Pair) => {
  if (!pair.without || !pair.with || pair.without.perSecond === 0) return
  const ratio = pair.with.perSecond / pair.without.perSecond
  setup.notes.push(
    `webhooks: ${what} with ${setup.endpoints} endpoints / without, same run: ` +
      `${ratio.toFixed(3)} (${pair.with.perSecond.toFixed(1)}/s against ${pair.without.perSecond.toFixed(1)}/s; ` +
      `p99 ${pair.with.p99Ms.toFixed(0)} ms against ${pair.without.p99Ms.toFixed(0)} ms; target ≥ ${TARGET_RATIO})`,
  )
}

const signUps = async (
  baseUrl: string,
  setup: WebhookSetup,
  spec: { name: string; label: string } & Timing,
  window: MeasureWindow,
  withEndpoints: boolean,
): Promise<ScenarioResult> => {
  const receiver = withEndpoints ? await ensureEndpoints(baseUrl, setup) : undefined
  const track = receiver ? arrivals(receiver, setup.endpoints) : undefined
  const { span, measure } = spanOf(window)
  const next = signUpShots(
    (n) => setup.email(spec.label, n),
    (email, at) => track?.answered(email, at),
  )
  const result = await runScenario(baseUrl, { ...spec, connections: CONNECTIONS, next }, measure)
  if (!track) return result
  await waitForDeliveries(track.answeredAt, track.receivedAt)
  const deliveries = deliveryStats(track.answeredAt, track.receivedAt, span, spec.durationSeconds)
  return { ...result, byKind: { ...result.byKind, 'webhook delivery': deliveries } }
}

export const overheadScenarios = (setup: WebhookSetup, timing: Timing): ScenarioSpec[] => {
  const signUp: Pair = {}
  const getSession: Pair = {}
  const withName = `${setup.endpoints} endpoints`
  const closed = (
    name: string,
    run: (baseUrl: string, window: MeasureWindow) => Promise<ScenarioResult>,
  ) => ({
    name,
    ...timing,
    run,
  })
  const sessions = async (baseUrl: string, window: MeasureWindow, name: string) =>
    runScenario(
      baseUrl,
      { name, ...timing, connections: CONNECTIONS, next: getSessionShots(setup.users) },
      window,
    )
  return [
    closed('webhooks: get-session c16, no endpoints', async (baseUrl, window) => {
      const result = await sessions(baseUrl, window, 'webhooks: get-session c16, no endpoints')
      getSession.without = result.byKind['get-session']
      return result
    }),
    closed('webhooks: sign-up c16, no endpoints', async (baseUrl, window) => {
      const name = 'webhooks: sign-up c16, no endpoints'
      const result = await signUps(baseUrl, setup, { name, label: 'wh0', ...timing }, window, false)
      signUp.without = result.byKind['sign-up']
      return result
    }),
    closed(`webhooks: sign-up c16, ${withName}`, async (baseUrl, window) => {
      const name = `webhooks: sign-up c16, ${withName}`
      const result = await signUps(baseUrl, setup, { name, label: 'wh1', ...timing }, window, true)
      signUp.with = result.byKind['sign-up']
      noteRatio(setup, 'sign-up c16', signUp)
      return result
    }),
    closed(`webhooks: get-session c16, ${withName}`, async (baseUrl, window) => {
      await ensureEndpoints(baseUrl, setup)
      const result = await sessions(baseUrl, window, `webhooks: get-session c16, ${withName}`)
      getSession.with = result.byKind['get-session']
      noteRatio(setup, 'get-session c16', getSession)
      return result
    }),
  ]
}
