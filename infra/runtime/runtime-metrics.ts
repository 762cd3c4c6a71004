/// What the Node process itself costs the requests it serves: how late the event loop gets round to
/// a timer (while it is busy with one thing, every request in flight waits) and how long garbage
/// collection pauses it, by kind of collection. `GET /metrics` offers both as Prometheus histograms
/// beside the projector's figures, so two scrapes around a stretch of time tell what happened in
/// it: the benchmark does this around each measured window to tell a latency tail that comes from
/// the process from one that does not.
///
/// The delay is measured by a timer of our own every `tickMs`: how much later than asked it ran.
/// That is the longest stretch the loop spent without coming back to its timers, up to the tick's
/// own precision (a millisecond), at the cost of 100 short callbacks a second.

import { constants, PerformanceObserver } from 'node:perf_hooks'

/**
 * A Prometheus histogram: `counts[i]` observations fell at or below `bounds[i]` and above the bound
 * before it; the last count holds those above every bound.
 */
type Histogram = { bounds: readonly number[]; counts: number[]; sum: number }

const histogram = (bounds: readonly number[]): Histogram => ({
  bounds,
  counts: new Array<number>(bounds.length + 1).fill(0),
  sum: 0,
})

const observe = (h: Histogram, seconds: number): void => {
  const bucket = h.bounds.findIndex((bound) => seconds <= bound)
  const index = bucket === -1 ? h.bounds.length : bucket
  h.counts[index] = (h.counts[index] ?? 0) + 1
  h.sum += seconds
}

/** The series of one histogram in Prometheus' text format: cumulative buckets, sum and count. */
const histogramLines = (name: string, labels: string, h: Histogram): string[] => {
  const label = (le: string) => `{${labels ? `${labels},` : ''}le="${le}"}`
  let cumulative = 0
  const lines = h.bounds.map((bound, i) => {
    cumulative += h.counts[i] ?? 0
    return `${name}_bucket${label(String(bound))} ${cumulative}`
  })
  cumulative += h.counts[h.bounds.length] ?? 0
  const plain = labels ? `{${labels}}` : ''
  return [
    ...lines,
    `${name}_bucket${label('+Inf')} ${cumulative}`,
    `${name}_sum${plain} ${h.sum}`,
    `${name}_count${plain} ${cumulative}`,
  ]
}

// Seconds. A get-session takes about a millisecond; the benchmark holds its p99 to 25 ms.
const DELAY_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1] as const
const GC_BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1] as const

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
}

export type RuntimeMetrics = {
  /** The histograms, in Prometheus' text format. */
  metrics(): string
  stop(): void
}

export const watchRuntime = ({ tickMs = 10 }: { tickMs?: number } = {}): RuntimeMetrics => {
  const delay = histogram(DELAY_BOUNDS)
  const pauses = new Map<string, Histogram>(
    Object.values(GC_KINDS).map((kind) => [kind, histogram(GC_BOUNDS)]),
  )

  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    observe(delay, Math.max(0, now - last - tickMs) / 1000)
    last = now
  }, tickMs)
  // Measuring must not keep a process alive that has nothing else to do.
  timer.unref()

  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } }
      const kind = GC_KINDS[detail?.kind ?? -1]
      const h = kind === undefined ? undefined : pauses.get(kind)
      if (h) observe(h, entry.duration / 1000)
    }
  })
  collections.observe({ entryTypes: ['gc'] })

  return {
    metrics: () =>
      [
        '# HELP tessera_event_loop_delay_seconds How much later than asked a timer ran, sampled every ' +
          `${tickMs} ms: the stretches the event loop was busy without a break.`,
        '# TYPE tessera_event_loop_delay_seconds histogram',
        ...histogramLines('tessera_event_loop_delay_seconds', '', delay),
        '# HELP nodejs_gc_duration_seconds Garbage collection pauses, by kind of collection.',
        '# TYPE nodejs_gc_duration_seconds histogram',
        ...[...pauses].flatMap(([kind, h]) =>
          histogramLines('nodejs_gc_duration_seconds', `kind="${kind}"`, h),
        ),
        '',
      ].join('\n'),
    stop: () => {
      clearInterval(timer)
      collections.disconnect()
    },
  }
}

let watching: RuntimeMetrics | undefined

/** One watch per process, however many servers it builds (tests build many): started on first use. */
export const processRuntime = (): RuntimeMetrics => {
  watching ??= watchRuntime()
  return watching
}
