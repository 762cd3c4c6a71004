/// What Tessera's process did during a measured window, from its /metrics scraped at both ends:
/// how often its event loop was busy past a latency budget without a break, and how long garbage
/// collection paused it. A tail in the window's latencies that these do not account for came from
/// outside the process (the database, the machine, the load generator).

/** The series of the two runtime histograms, by their full name with labels. */
type Scrape = Map<string, number>

const RUNTIME_SERIES =
  /^(tessera_event_loop_delay_seconds|nodejs_gc_duration_seconds)_(bucket|sum|count)(\{[^}]*\})? (\S+)$/

/** The runtime series of a /metrics answer; null when it has none. */
export const parseRuntime = (metrics: string): Scrape | null => {
  const scrape: Scrape = new Map()
  for (const line of metrics.split('\n')) {
    const match = RUNTIME_SERIES.exec(line)
    if (match) scrape.set(line.slice(0, line.lastIndexOf(' ')), Number(match[4]))
  }
  return scrape.size > 0 ? scrape : null
}

export const scrapeRuntime = async (baseUrl: string): Promise<Scrape | null> => {
  const response = await fetch(`${baseUrl}/api/auth/metrics`)
  return response.ok ? parseRuntime(await response.text()) : null
}

export type RuntimeWindow = {
  /** Event-loop delays longer than 25, 50 and 100 ms. */
  loopDelaysOver25ms: number
  loopDelaysOver50ms: number
  loopDelaysOver100ms: number
  /** The upper bound, in ms, of the bucket that holds the window's longest delay; Infinity past the last. */
  longestDelayAtMostMs: number
  gcPauses: number
  gcPauseMs: number
  gcPausesOver10ms: number
}

const DELAY = 'tessera_event_loop_delay_seconds'
const GC = 'nodejs_gc_duration_seconds'

/** Counts of each bucket between the scrapes, by the bucket's bound in seconds (Infinity for +Inf). */
const bucketsBetween = (before: Scrape, after: Scrape, name: string, labels = ''): Map<number, number> => {
  const buckets = new Map<number, number>()
  for (const [series, value] of after) {
    const match = new RegExp(`^${name}_bucket\\{${labels ? `${labels},` : ''}le="([^"]+)"\\}$`).exec(series)
    if (!match?.[1]) continue
    const bound = match[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(match[1])
    buckets.set(bound, value - (before.get(series) ?? 0))
  }
  return buckets
}

const above = (buckets: Map<number, number>, seconds: number): number =>
  (buckets.get(Number.POSITIVE_INFINITY) ?? 0) - (buckets.get(seconds) ?? 0)

const gcKinds = (scrape: Scrape): string[] =>
  [...scrape.keys()].flatMap(
    (series) => /^nodejs_gc_duration_seconds_count\{kind="([^"]+)"\}$/.exec(series)?.[1] ?? [],
  )

/** A kind of collection (`minor`, `major`, `incremental`, `weakcb`): its pauses and their milliseconds. */
export type GcKindWindow = { kind: string; pauses: number; ms: number }

/** The collections between the scrapes, kind by kind. */
export const gcPausesByKind = (before: Scrape, after: Scrape): GcKindWindow[] => {
  const between = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0)
  return gcKinds(after).map((kind) => ({
    kind,
    pauses: between(`${GC}_count{kind="${kind}"}`),
    ms: between(`${GC}_sum{kind="${kind}"}`) * 1000,
  }))
}

export const runtimeBetween = (before: Scrape, after: Scrape): RuntimeWindow => {
  const delays = bucketsBetween(before, after, DELAY)
  const total = delays.get(Number.POSITIVE_INFINITY) ?? 0
  const bounds = [...delays.keys()].sort((a, b) => a - b)
  const longest = bounds.find((bound) => (delays.get(bound) ?? 0) === total) ?? Number.POSITIVE_INFINITY
  const byKind = gcPausesByKind(before, after)
  return {
    loopDelaysOver25ms: above(delays, 0.025),
    loopDelaysOver50ms: above(delays, 0.05),
    loopDelaysOver100ms: above(delays, 0.1),
    longestDelayAtMostMs: longest * 1000,
    gcPauses: byKind.reduce((sum, { pauses }) => sum + pauses, 0),
    gcPauseMs: byKind.reduce((sum, { ms }) => sum + ms, 0),
    gcPausesOver10ms: byKind.reduce(
      (sum, { kind }) => sum + above(bucketsBetween(before, after, GC, `kind="${kind}"`), 0.01),
      0,
    ),
  }
}

/** Several windows of one scenario: counts add up, the longest is the longest. */
export const mergeRuntimeWindows = (windows: readonly RuntimeWindow[]): RuntimeWindow => ({
  loopDelaysOver25ms: windows.reduce((sum, w) => sum + w.loopDelaysOver25ms, 0),
  loopDelaysOver50ms: windows.reduce((sum, w) => sum + w.loopDelaysOver50ms, 0),
  loopDelaysOver100ms: windows.reduce((sum, w) => sum + w.loopDelaysOver100ms, 0),
  longestDelayAtMostMs: Math.max(...windows.map((w) => w.longestDelayAtMostMs)),
  gcPauses: windows.reduce((sum, w) => sum + w.gcPauses, 0),
  gcPauseMs: windows.reduce((sum, w) => sum + w.gcPauseMs, 0),
  gcPausesOver10ms: windows.reduce((sum, w) => sum + w.gcPausesOver10ms, 0),
})

export const describeRuntimeWindow = (name: string, w: RuntimeWindow): string => {
  const longest = Number.isFinite(w.longestDelayAtMostMs) ? `≤ ${w.longestDelayAtMostMs} ms` : '> 1 s'
  return (
    `${name}: event loop busy > 25 ms ${w.loopDelaysOver25ms}× (> 50 ms ${w.loopDelaysOver50ms}×, ` +
    `> 100 ms ${w.loopDelaysOver100ms}×; longest ${longest}); GC ${w.gcPauses} pauses, ` +
    `${w.gcPauseMs.toFixed(0)} ms in all, ${w.gcPausesOver10ms} > 10 ms`
  )
}
