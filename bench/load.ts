/// Drives one scenario with autocannon: keep-alive connections, one request in flight on each,
/// every request chosen afresh (so cookies rotate over all users and a mix can be drawn per
/// request), every response checked, and latency kept per kind of request.

import autocannon from 'autocannon'

import type {
  Answer,
  ClosedLoopSpec,
  Kind,
  KindStats,
  MeasureWindow,
  ScenarioResult,
  Shot,
} from './load-types.js'

export type {
  Answer,
  ClosedLoopSpec,
  Kind,
  KindStats,
  MeasureWindow,
  ScenarioResult,
  ScenarioSpec,
  SelfDrivenSpec,
  Shot,
  Timing,
} from './load-types.js'

export const REQUEST_TIMEOUT_SECONDS = 30
// Kept running after the window so that requests sent near its end can still be answered.
export const TAIL_SECONDS = 1
const FAILURE_BODY_CHARS = 160

/** What failed first for a kind: the status and the start of the body. */
export const failureOf = (status: number, body: string) => `${status} ${body.slice(0, FAILURE_BODY_CHARS)}`

/**
 * The shot's headers, and the page's Origin on a browser's POST: both servers refuse a POST with a
 * cookie and no Origin (CSRF), and better-auth a sign-in or sign-up without one.
 */
export const headersOf = (shot: Shot, origin: string): Record<string, string> => ({
  ...(shot.method === 'POST' && !shot.fromServer ? { origin } : {}),
  ...shot.headers,
})

/**
 * Drives the scenario over one set of connections: warm-up, then the measured window, then a
 * short tail. Connections are opened once, so the window sees the steady state and not the
 * opening burst (64 connections at once) or work left over from a warm-up's dropped requests.
 * Throughput counts answers completed inside the window; latencies are those of requests sent
 * inside it.
 */
export const runScenario = async (
  baseUrl: string,
  spec: ClosedLoopSpec,
  window: MeasureWindow,
): Promise<ScenarioResult> => {
  const origin = new URL(baseUrl).origin
  const sent = new WeakMap<autocannon.Context, { shot: Shot; at: number }>()
  const answers = new Map<Kind, Answer[]>()
  const failures = new Map<Kind, string>()
  let pending: Answer | null = null
  let unmatched = 0
  let errors = 0
  const from = performance.now() + spec.warmupSeconds * 1000
  const to = from + spec.durationSeconds * 1000
  const inWindow = (at: number) => at >= from && at < to
  const timers = [
    setTimeout(() => window.onStart(), from - performance.now()),
    setTimeout(() => window.onEnd(), to - performance.now()),
  ]

  const instance = autocannon({
    url: baseUrl,
    connections: spec.connections,
    duration: spec.warmupSeconds + spec.durationSeconds + TAIL_SECONDS,
    pipelining: 1,
    timeout: REQUEST_TIMEOUT_SECONDS,
    requests: [
      {
        // Called just before each request is written.
        setupRequest: (request, context) => {
          const shot = spec.next()
          sent.set(context, { shot, at: performance.now() })
          const { method, path, body } = shot
          return {
            ...request,
            method,
            path,
            headers: { ...request.headers, ...headersOf(shot, origin) },
            ...(body ? { body } : {}),
          }
        },
        // autocannon calls this right before it emits `response` for the same answer, which is
        // how a latency is matched to its kind.
        onResponse: (status, body, context, headers) => {
          const request = sent.get(context)
          if (!request) return
          const { shot, at } = request
          const correct = status >= 200 && status < 300 && shot.isCorrect(body, headers)
          if (!correct && !failures.has(shot.kind)) failures.set(shot.kind, failureOf(status, body))
          pending = { kind: shot.kind, status, correct, sentAt: at, doneAt: performance.now(), ms: 0 }
        },
      },
    ],
  })
  instance.on('response', (_client: unknown, _status: number, _bytes: number, milliseconds: number) => {
    const answer = pending
    pending = null
    if (!answer) {
      unmatched += 1
      return
    }
    push(answers, answer.kind, { ...answer, ms: milliseconds })
  })
  instance.on('reqError', () => {
    if (inWindow(performance.now())) errors += 1
  })
  try {
    await instance
  } finally {
    for (const timer of timers) clearTimeout(timer)
  }
  if (unmatched > 0) throw new Error(`${spec.name}: ${unmatched} responses could not be matched to a request`)

  const byKind: Partial<Record<Kind, KindStats>> = {}
  for (const [kind, list] of answers) {
    const completed = list.filter((a) => inWindow(a.doneAt))
    const latencies = list.filter((a) => inWindow(a.sentAt)).map((a) => a.ms)
    if (completed.length > 0 || latencies.length > 0)
      byKind[kind] = kindStats(latencies, completed, spec.durationSeconds, failures.get(kind))
  }
  return { name: spec.name, connections: spec.connections, seconds: spec.durationSeconds, errors, byKind }
}

const push = <T>(map: Map<Kind, T[]>, kind: Kind, value: T) => {
  const list = map.get(kind)
  if (list) list.push(value)
  else map.set(kind, [value])
}

export const kindStats = (
  samples: number[],
  completed: readonly Answer[],
  seconds: number,
  firstFailure: string | undefined,
): KindStats => {
  const sorted = Float64Array.from(samples).sort()
  return {
    requests: completed.length,
    perSecond: completed.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: sorted.length === 0 ? Number.NaN : sorted.reduce((sum, ms) => sum + ms, 0) / sorted.length,
    maxMs: sorted.at(-1) ?? Number.NaN,
    non2xx: completed.filter((a) => a.status < 200 || a.status >= 300).length,
    incorrect: completed.filter((a) => a.status >= 200 && a.status < 300 && !a.correct).length,
    ...(firstFailure === undefined ? {} : { firstFailure }),
  }
}

/**
 * Nearest-rank percentile of ascending samples; NaN without samples (answers completed inside the
 * window to requests sent before it), which the report shows as "—" and never counts as fast.
 */
export const percentile = (sorted: Float64Array, p: number): number => {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? 0
}
