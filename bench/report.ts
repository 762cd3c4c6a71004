/// The targets, and the tables the benchmark prints.

import type { CpuUse } from './cpu.js'
import type { Kind, KindStats, ScenarioResult } from './load.js'

export type DatabaseLabel = 'PGlite' | 'PostgreSQL'

/** `peakRssBytes`: the server's peak RSS so far, taken when the scenario ended. */
export type MeasuredScenario = ScenarioResult & { cpu: CpuUse; peakRssBytes: number }

export type RunResult = {
  database: DatabaseLabel
  users: number
  seedSeconds: number
  scenarios: MeasuredScenario[]
  seedPeakRssBytes: number
  peakRssBytes: number
}

export type TargetCheck = {
  target: string
  /** null when the scenario was not run (BENCH_ONLY). */
  measured: number | null
  limit: number
  comparison: '>=' | '<'
  met: boolean | null
}

const MB = 1024 * 1024

/** A kind's figures in a scenario; null when the scenario was not run, undefined for no answers. */
const stats = (run: RunResult, scenario: string, kind: Kind): KindStats | undefined | null => {
  const found = run.scenarios.find((s) => s.name === scenario)
  return found ? found.byKind[kind] : null
}

const check = (
  target: string,
  measured: number | null,
  comparison: '>=' | '<',
  limit: number,
): TargetCheck => ({
  target,
  measured,
  limit,
  comparison,
  met: measured === null ? null : comparison === '>=' ? measured >= limit : measured < limit,
})

/** The targets of issue 2, section 7 (set for PostgreSQL on this 2-core machine). */
export const checkTargets = (run: RunResult): TargetCheck[] => {
  const gs16 = stats(run, 'get-session c16', 'get-session')
  const mixedGetSession = stats(run, 'mixed c64', 'get-session')
  const mixedSignIn = stats(run, 'mixed c64', 'sign-in')
  // An answer that was wrong counts as not served: a broken server must not look fast.
  const served = (s: KindStats | undefined | null) =>
    s === null ? null : s && s.non2xx === 0 && s.incorrect === 0 ? s.perSecond : 0
  const p99 = (s: KindStats | undefined | null) =>
    s === null ? null : (s?.p99Ms ?? Number.POSITIVE_INFINITY)
  return [
    check('get-session c16 req/s', served(gs16), '>=', 5000),
    check('get-session c16 p99 ms', p99(gs16), '<', 10),
    check('sign-in c16 req/s', served(stats(run, 'sign-in c16', 'sign-in')), '>=', 21),
    check('sign-up c16 req/s', served(stats(run, 'sign-up c16', 'sign-up')), '>=', 20),
    check('mixed c64 get-session p99 ms', p99(mixedGetSession), '<', 25),
    check('mixed c64 sign-ins still served req/s', served(mixedSignIn), '>=', 1),
    check('server peak RSS MB', run.peakRssBytes / MB, '<', 200),
  ]
}

const pad = (value: string, width: number) => value.padEnd(width)
const padLeft = (value: string, width: number) => value.padStart(width)

const number = (value: number): string => {
  if (!Number.isFinite(value)) return '—'
  if (value >= 100) return Math.round(value).toLocaleString('en-US')
  if (value >= 10) return value.toFixed(1)
  return value.toFixed(2)
}

const COLUMNS = ['scenario', 'request', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'wrong', 'errors']
const WIDTHS = [17, 12, 9, 8, 8, 8, 8, 6, 7]
// Above this many cores used by unrelated processes, the figures say more about them than us.
const BUSY_MACHINE_CORES = 0.2

const cpuCell = (cpu: CpuUse) =>
  [cpu.server, cpu.database, cpu.loadGenerator, cpu.other].map((cores) => cores.toFixed(2)).join(' / ')

const row = (cells: readonly string[]): string =>
  cells.map((cell, i) => (i < 2 ? pad(cell, WIDTHS[i] ?? 0) : padLeft(cell, WIDTHS[i] ?? 0))).join(' ')

export const formatRun = (run: RunResult, targetsApply: boolean): string => {
  const lines = [
    `── ${run.database}: ${run.users} users seeded in ${run.seedSeconds.toFixed(1)} s ──`,
    `${row(COLUMNS)}   CPU cores: server / database / load generator / other`,
  ]
  for (const scenario of run.scenarios) {
    if (Object.keys(scenario.byKind).length === 0)
      lines.push(
        `${row([scenario.name, '(no responses)', '', '', '', '', '', '', String(scenario.errors)])}   ${cpuCell(scenario.cpu)}`,
      )
    let first = true
    for (const [kind, s] of Object.entries(scenario.byKind)) {
      lines.push(
        row([
          first ? scenario.name : '',
          kind,
          number(s.perSecond),
          number(s.p50Ms),
          number(s.p99Ms),
          number(s.maxMs),
          String(s.non2xx),
          String(s.incorrect),
          first ? String(scenario.errors) : '',
        ]) + (first ? `   ${cpuCell(scenario.cpu)}` : ''),
      )
      first = false
    }
  }
  const rssSteps = run.scenarios.map((s) => `${s.name} ${number(s.peakRssBytes / MB)}`).join(', ')
  lines.push(
    `server peak RSS: ${number(run.peakRssBytes / MB)} MB (after seeding ${number(run.seedPeakRssBytes / MB)}; ${rssSteps})`,
  )
  const busiest = Math.max(...run.scenarios.map((s) => s.cpu.other))
  if (busiest > BUSY_MACHINE_CORES)
    lines.push(
      `WARNING: other processes used up to ${busiest.toFixed(2)} cores during a scenario; figures are unreliable.`,
    )
  lines.push('')
  lines.push(
    targetsApply ? 'Targets (issue 2, on PostgreSQL):' : 'Targets (set for PostgreSQL; shown for reference):',
  )
  for (const t of checkTargets(run)) {
    const verdict = t.met === null ? 'not run' : t.met ? 'met' : 'MISSED'
    lines.push(
      `  ${pad(t.target, 38)} ${padLeft(t.measured === null ? '—' : number(t.measured), 9)}  ${t.comparison} ${padLeft(String(t.limit), 5)}  ${verdict}`,
    )
  }
  return lines.join('\n')
}
