/// What webhooks cost the requests that make their events (issue 34: sign-up and get-session within
/// 5% of the same run without endpoints). This machine's speed drifts over minutes (by a fifth between
/// runs when it is shared), so one window each way cannot tell a 5% cost from the drift. Each scenario
/// therefore runs `BENCH_WEBHOOK_PAIRS` pairs of windows (3), in the order A B, B A, A B…: A with no
/// endpoint at all (those of the last B deleted once their deliveries arrived), B with
/// `BENCH_WEBHOOK_ENDPOINTS` endpoints made for it (bench/webhook-receiver.ts), which start at the log's
/// end as any new endpoint does. In B each sign-up's `user.created` and `session.created` go to every
/// endpoint. The table shows the B windows (sign-up's with its deliveries: deliveries a second, and
/// from each sign-up's answer, its commit, to the receipt of its `user.created` at each endpoint);
/// under it, each pair's ratio B ÷ A and the ratio of all B windows to all A windows. The CPU columns
/// span every window of the scenario, A and B alike.

import type { KindStats, MeasureWindow, ScenarioResult, ScenarioSpec, Shot, Timing } from './load.js'
import { kindStats, runScenario } from './load.js'
import { mergeKind } from './rounds.js'
import { type BenchUser, signUpBody } from './seed.js'
import { isRecord, JSON_HEADERS, parse, rotate } from './shots.js'
import {
  deliveryStats,
  ensureEndpoints,
  removeEndpoints,
  spanOf,
  type WebhookSetup,
  waitForDeliveries,
} from './webhook-figures.js'
import { arrivals } from './webhook-receiver.js'

const CONNECTIONS = 16
const TARGET_RATIO = 0.95
const PAIRS_DEFAULT = 3

/** Pairs of windows per scenario: `BENCH_WEBHOOK_PAIRS`, a whole number from 1. */
export const webhookPairs = (raw = process.env.BENCH_WEBHOOK_PAIRS): number => {
  if (raw === undefined || raw === '') return PAIRS_DEFAULT
  const pairs = Number(raw)
  if (!Number.isInteger(pairs) || pairs < 1)
    throw new Error(`BENCH_WEBHOOK_PAIRS must be 1 or more, not ${raw}`)
  return pairs
}

type Mode = 'without' | 'with'

/** A B, B A, A B…: each mode goes first in half the pairs, so a steady drift skews both alike. */
export const pairOrder = (pair: number): readonly Mode[] =>
  pair % 2 === 0 ? ['without', 'with'] : ['with', 'without']

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

/** One window's figures: the request's, and (with endpoints, for sign-up) the deliveries'. */
type WindowFigures = { result: ScenarioResult; deliveries?: KindStats }

type RunWindow = (mode: Mode, label: string, measure: MeasureWindow) => Promise<WindowFigures>

const signUpWindow =
  (baseUrl: string, setup: WebhookSetup, spec: { name: string } & Timing): RunWindow =>
  async (mode, label, measure) => {
    const receiver = mode === 'with' ? setup.receiver : undefined
    const track = receiver ? arrivals(receiver, setup.endpoints) : undefined
    const { span, measure: spanned } = spanOf(measure)
    const next = signUpShots(
      (n) => setup.email(label, n),
      (email, at) => track?.answered(email, at),
    )
    const result = await runScenario(baseUrl, { ...spec, connections: CONNECTIONS, next }, spanned)
    if (!track) return { result }
    await waitForDeliveries(track.answeredAt, track.receivedAt)
    return {
      result,
      deliveries: deliveryStats(track.answeredAt, track.receivedAt, span, spec.durationSeconds),
    }
  }

const getSessionWindow =
  (baseUrl: string, setup: WebhookSetup, spec: { name: string } & Timing): RunWindow =>
  async (_mode, _label, measure) => ({
    result: await runScenario(
      baseUrl,
      { ...spec, connections: CONNECTIONS, next: getSessionShots(setup.users) },
      measure,
    ),
  })

const rateOf = (figures: WindowFigures, kind: 'sign-up' | 'get-session') =>
  figures.result.byKind[kind]?.perSecond ?? 0

/**
 * The pairs of windows of one scenario: endpoints made before each B window and deleted before each A
 * window. The outer window (the harness's CPU figures) opens with the first and closes with the last.
 */
const alternating = async (
  baseUrl: string,
  setup: WebhookSetup,
  kind: 'sign-up' | 'get-session',
  window: MeasureWindow,
  runWindow: RunWindow,
): Promise<ScenarioResult> => {
  const pairs = webhookPairs()
  const last = pairs * 2 - 1
  const windows: Record<Mode, WindowFigures[]> = { without: [], with: [] }
  const ratios: number[] = []
  let index = 0
  for (let pair = 0; pair < pairs; pair += 1) {
    const rates: Record<Mode, number> = { without: 0, with: 0 }
    for (const mode of pairOrder(pair)) {
      if (mode === 'with') await ensureEndpoints(baseUrl, setup)
      else await removeEndpoints(baseUrl, setup)
      const at = index++
      const measure: MeasureWindow = {
        onStart: () => at === 0 && window.onStart(),
        onEnd: () => at === last && window.onEnd(),
      }
      const figures = await runWindow(mode, `wh${pair}${mode === 'with' ? 'b' : 'a'}`, measure)
      windows[mode].push(figures)
      rates[mode] = rateOf(figures, kind)
      process.stdout.write(`[${mode === 'with' ? 'B' : 'A'} ${rates[mode].toFixed(1)}/s] `)
    }
    ratios.push(rates.without === 0 ? Number.NaN : rates.with / rates.without)
  }
  return summarize(setup, kind, windows, ratios)
}

/** The windows merged; a window where nothing was answered counts as none answered, not as absent. */
const mergedKind = (figures: readonly WindowFigures[], pick: (f: WindowFigures) => KindStats | undefined) => {
  const stats = figures.map((f) => pick(f) ?? kindStats([], [], f.result.seconds, undefined))
  const seconds = figures.reduce((sum, f) => sum + f.result.seconds, 0)
  return mergeKind(stats, seconds)
}

/** The B windows as the scenario's result, and the ratios as a note under the table. */
const summarize = (
  setup: WebhookSetup,
  kind: 'sign-up' | 'get-session',
  windows: Record<Mode, WindowFigures[]>,
  ratios: readonly number[],
): ScenarioResult => {
  const without = mergedKind(windows.without, (f) => f.result.byKind[kind])
  const withEndpoints = mergedKind(windows.with, (f) => f.result.byKind[kind])
  const deliveries = kind === 'sign-up' ? mergedKind(windows.with, (f) => f.deliveries) : undefined
  const [first] = windows.with
  if (!first) throw new Error(`webhooks: ${kind} measured no window`)
  const ratio = without.perSecond === 0 ? Number.NaN : withEndpoints.perSecond / without.perSecond
  setup.notes.push(
    `webhooks: ${kind} c16 with ${setup.endpoints} endpoints ÷ without, ${ratios.length} pairs of windows ` +
      `(A B, B A…): ${ratio.toFixed(3)} (${withEndpoints.perSecond.toFixed(1)}/s against ` +
      `${without.perSecond.toFixed(1)}/s; p99 ${withEndpoints.p99Ms.toFixed(0)} ms against ` +
      `${without.p99Ms.toFixed(0)} ms); pair by pair ${ratios.map((r) => r.toFixed(3)).join(', ')}; ` +
      `target ≥ ${TARGET_RATIO}`,
  )
  const seconds = windows.with.reduce((sum, f) => sum + f.result.seconds, 0)
  return {
    ...first.result,
    seconds,
    errors: [...windows.with, ...windows.without].reduce((sum, f) => sum + f.result.errors, 0),
    byKind: { [kind]: withEndpoints, ...(deliveries ? { 'webhook delivery': deliveries } : {}) },
  }
}

export const overheadScenarios = (setup: WebhookSetup, timing: Timing): ScenarioSpec[] => {
  const signUp = `webhooks: sign-up c16, ${setup.endpoints} endpoints on and off`
  const getSession = `webhooks: get-session c16, ${setup.endpoints} endpoints on and off`
  return [
    {
      name: signUp,
      ...timing,
      run: (baseUrl, window) =>
        alternating(
          baseUrl,
          setup,
          'sign-up',
          window,
          signUpWindow(baseUrl, setup, { name: signUp, ...timing }),
        ),
    },
    {
      name: getSession,
      ...timing,
      run: (baseUrl, window) =>
        alternating(
          baseUrl,
          setup,
          'get-session',
          window,
          getSessionWindow(baseUrl, setup, { name: getSession, ...timing }),
        ),
    },
  ]
}
