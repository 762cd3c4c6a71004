/// Drives one scenario with autocannon: keep-alive connections, one request in flight on each,
/// every request chosen afresh (so cookies rotate over all users and a mix can be drawn per
/// request), every response checked, and latency kept per kind of request.

import autocannon from 'autocannon'

export type Kind = 'get-session' | 'sign-in' | 'sign-up'

/** One request to send and how to tell that its answer is right. */
export type Shot = {
  kind: Kind
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
  /** True when a 2xx answer carries what it should (e.g. a session, not `null`). */
  isCorrect(body: string): boolean
}

export type ScenarioSpec = {
  name: string
  connections: number
  durationSeconds: number
  warmupSeconds: number
  next(): Shot
}

export type KindStats = {
  requests: number
  perSecond: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  non2xx: number
  /** 2xx answers whose body was wrong. */
  incorrect: number
}

export type ScenarioResult = {
  name: string
  connections: number
  seconds: number
  /** Connection errors and timeouts. */
  errors: number
  byKind: Partial<Record<Kind, KindStats>>
}

type Verdict = { kind: Kind; status: number; correct: boolean }

const REQUEST_TIMEOUT_SECONDS = 30

/** Runs the scenario for its warm-up time and forgets the figures (JIT, caches, pools). */
export const warmUp = async (baseUrl: string, spec: ScenarioSpec): Promise<void> => {
  if (spec.warmupSeconds > 0) await drive(baseUrl, spec, spec.warmupSeconds)
}

export const measure = (baseUrl: string, spec: ScenarioSpec): Promise<ScenarioResult> =>
  drive(baseUrl, spec, spec.durationSeconds)

const drive = async (baseUrl: string, spec: ScenarioSpec, seconds: number): Promise<ScenarioResult> => {
  const shots = new WeakMap<autocannon.Context, Shot>()
  const latencies = new Map<Kind, number[]>()
  const verdicts = new Map<Kind, Verdict[]>()
  let pending: Verdict | null = null
  let unmatched = 0
  let errors = 0

  const instance = autocannon({
    url: baseUrl,
    connections: spec.connections,
    duration: seconds,
    pipelining: 1,
    timeout: REQUEST_TIMEOUT_SECONDS,
    requests: [
      {
        setupRequest: (request, context) => {
          const shot = spec.next()
          shots.set(context, shot)
          const { method, path, headers, body } = shot
          return {
            ...request,
            method,
            path,
            headers: { ...request.headers, ...headers },
            ...(body ? { body } : {}),
          }
        },
        // autocannon calls this right before it emits `response` for the same answer, which is
        // how a latency is matched to its kind.
        onResponse: (status, body, context) => {
          const shot = shots.get(context)
          if (!shot) return
          const ok = status >= 200 && status < 300
          pending = { kind: shot.kind, status, correct: ok && shot.isCorrect(body) }
        },
      },
    ],
  })
  instance.on('response', (_client: unknown, _status: number, _bytes: number, milliseconds: number) => {
    const verdict = pending
    pending = null
    if (!verdict) {
      unmatched += 1
      return
    }
    push(latencies, verdict.kind, milliseconds)
    push(verdicts, verdict.kind, verdict)
  })
  instance.on('reqError', () => {
    errors += 1
  })
  const result = await instance
  if (unmatched > 0) throw new Error(`${spec.name}: ${unmatched} responses could not be matched to a request`)

  const byKind: Partial<Record<Kind, KindStats>> = {}
  for (const [kind, samples] of latencies) {
    byKind[kind] = kindStats(samples, verdicts.get(kind) ?? [], result.duration)
  }
  return { name: spec.name, connections: spec.connections, seconds: result.duration, errors, byKind }
}

const push = <T>(map: Map<Kind, T[]>, kind: Kind, value: T) => {
  const list = map.get(kind)
  if (list) list.push(value)
  else map.set(kind, [value])
}

const kindStats = (samples: number[], verdicts: readonly Verdict[], seconds: number): KindStats => {
  const sorted = Float64Array.from(samples).sort()
  return {
    requests: samples.length,
    perSecond: samples.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1) ?? 0,
    non2xx: verdicts.filter((v) => v.status < 200 || v.status >= 300).length,
    incorrect: verdicts.filter((v) => v.status >= 200 && v.status < 300 && !v.correct).length,
  }
}

/** Nearest-rank percentile of ascending samples. */
const percentile = (sorted: Float64Array, p: number): number => {
  if (sorted.length === 0) return 0
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? 0
}
