/// Several measured windows of one scenario on one server, merged into one result: counts and
/// seconds add up (so the rate is over all windows), latency percentiles are the windows' own,
/// weighted by how many requests each window measured (an approximation: the windows' samples are
/// not kept), maxima are the largest, CPU is the mean, peak RSS the highest, and the event-loop and GC
/// counts add up.

import type { KindStats } from './load.js'
import type { MeasuredScenario } from './report.js'
import { mergeRuntimeWindows } from './runtime-window.js'

const weightedMean = (values: readonly { value: number; weight: number }[]): number => {
  const counted = values.filter((v) => !Number.isNaN(v.value) && v.weight > 0)
  const total = counted.reduce((sum, v) => sum + v.weight, 0)
  return total === 0 ? Number.NaN : counted.reduce((sum, v) => sum + v.value * v.weight, 0) / total
}

export const mergeKind = (stats: readonly KindStats[], seconds: number): KindStats => {
  const requests = stats.reduce((sum, s) => sum + s.requests, 0)
  const byRequests = (pick: (s: KindStats) => number) =>
    weightedMean(stats.map((s) => ({ value: pick(s), weight: s.requests })))
  const firstFailure = stats.find((s) => s.firstFailure !== undefined)?.firstFailure
  return {
    requests,
    perSecond: requests / seconds,
    p50Ms: byRequests((s) => s.p50Ms),
    p99Ms: byRequests((s) => s.p99Ms),
    meanMs: byRequests((s) => s.meanMs),
    maxMs: Math.max(...stats.map((s) => s.maxMs)),
    non2xx: stats.reduce((sum, s) => sum + s.non2xx, 0),
    incorrect: stats.reduce((sum, s) => sum + s.incorrect, 0),
    ...(firstFailure !== undefined ? { firstFailure } : {}),
  }
}

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length

export const mergeRounds = (rounds: readonly MeasuredScenario[]): MeasuredScenario => {
  const [first] = rounds
  if (first === undefined) throw new Error('no round to merge')
  if (rounds.length === 1) return first
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0)
  const runtimes = rounds.flatMap((r) => r.runtime ?? [])
  const kinds = new Set(rounds.flatMap((r) => Object.keys(r.byKind))) as Set<keyof MeasuredScenario['byKind']>
  const byKind: MeasuredScenario['byKind'] = {}
  for (const kind of kinds) {
    const stats = rounds.flatMap((r) => r.byKind[kind] ?? [])
    byKind[kind] = mergeKind(stats, seconds)
  }
  return {
    ...first,
    seconds,
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    byKind,
    cpu: {
      server: mean(rounds.map((r) => r.cpu.server)),
      serverEventLoop: mean(rounds.map((r) => r.cpu.serverEventLoop)),
      database: mean(rounds.map((r) => r.cpu.database)),
      loadGenerator: mean(rounds.map((r) => r.cpu.loadGenerator)),
      other: mean(rounds.map((r) => r.cpu.other)),
      cores: first.cpu.cores,
    },
    peakRssBytes: Math.max(...rounds.map((r) => r.peakRssBytes)),
    ...(runtimes.length === rounds.length ? { runtime: mergeRuntimeWindows(runtimes) } : {}),
  }
}

/**
 * Tessera's rate over better-auth's window by window, for each kind both answered: the windows of a
 * pair ran back to back, so how far these ratios lie apart shows how much of a merged ratio is the
 * machine's drift rather than the servers.
 */
export const windowRatios = (
  tessera: readonly MeasuredScenario[],
  betterAuth: readonly MeasuredScenario[],
): Partial<Record<keyof MeasuredScenario['byKind'], number[]>> => {
  const ratios: Partial<Record<keyof MeasuredScenario['byKind'], number[]>> = {}
  const pairs = Math.min(tessera.length, betterAuth.length)
  for (let index = 0; index < pairs; index++) {
    const ours = tessera[index]?.byKind ?? {}
    const theirs = betterAuth[index]?.byKind ?? {}
    for (const kind of Object.keys(ours) as (keyof MeasuredScenario['byKind'])[]) {
      const [rate, reference] = [ours[kind]?.perSecond, theirs[kind]?.perSecond]
      if (rate === undefined || reference === undefined || reference === 0) continue
      ratios[kind] = [...(ratios[kind] ?? []), rate / reference]
    }
  }
  return ratios
}
