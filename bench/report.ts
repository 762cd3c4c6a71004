/// The issues' targets, and the tables the benchmark prints: one per server and database, and
/// Tessera beside better-auth for each database.

import type { CpuUse } from './cpu.js'
import type { Kind, KindStats, ScenarioResult } from './load.js'
import type { OpenLoopFacts } from './open-loop.js'
import { describeRuntimeWindow, type RuntimeWindow } from './runtime-window.js'
import { MIXED_OPEN } from './scenarios.js'

export type DatabaseLabel = 'PGlite' | 'PostgreSQL'
export type ServerLabel = 'Tessera' | 'better-auth'

/**
 * `peakRssBytes`: the server's peak RSS so far, taken when the scenario ended; `runtime`: Tessera's
 * event-loop and GC figures over the window (better-auth offers none).
 */
export type MeasuredScenario = ScenarioResult & { cpu: CpuUse; peakRssBytes: number; runtime?: RuntimeWindow }

export type RunResult = {
  server: ServerLabel
  database: DatabaseLabel
  users: number
  seedSeconds: number
  scenarios: MeasuredScenario[]
  seedPeakRssBytes: number
  peakRssBytes: number
  /** What a reader should know about this run (e.g. how the organizations were seeded). */
  notes: string[]
}

/** Both servers on one database; better-auth is null when skipped, with the reason. */
export type DatabaseRuns = {
  database: DatabaseLabel
  tessera: RunResult
  betterAuth: RunResult | null
  betterAuthSkipped?: string
}

export type TargetCheck = {
  issue: number
  target: string
  /** null when the scenario was not run (BENCH_ONLY, or better-auth skipped). */
  measured: number | null
  limit: number
  comparison: '>=' | '<' | '<='
  met: boolean | null
  /** False when the target is set for another database and shown for reference only. */
  applies: boolean
}

const MB = 1024 * 1024

type Found = KindStats | undefined | null

/** A kind's figures in a scenario; null when the scenario was not run, undefined for no answers. */
const stats = (run: RunResult | null, scenario: string, kind: Kind): Found => {
  const found = run?.scenarios.find((s) => s.name === scenario)
  return found ? found.byKind[kind] : null
}

// An answer that was wrong counts as not served: a broken server must not look fast.
const served = (s: Found) => (s === null ? null : s && s.non2xx === 0 && s.incorrect === 0 ? s.perSecond : 0)
const p99 = (s: Found) => (s === null ? null : (s?.p99Ms ?? Number.POSITIVE_INFINITY))

/** Tessera's figure over better-auth's; null when either is missing or better-auth's is 0. */
const ratio = (tessera: number | null, betterAuth: number | null) =>
  tessera === null || betterAuth === null || betterAuth === 0 ? null : tessera / betterAuth

const compare = (measured: number, comparison: TargetCheck['comparison'], limit: number) =>
  comparison === '>=' ? measured >= limit : comparison === '<=' ? measured <= limit : measured < limit

const check =
  (issue: number, applies: boolean) =>
  (
    target: string,
    measured: number | null,
    comparison: TargetCheck['comparison'],
    limit: number,
  ): TargetCheck => ({
    issue,
    target,
    measured,
    limit,
    comparison,
    met: measured === null ? null : compare(measured, comparison, limit),
    applies,
  })

/** Issue 2, section 7 (set for PostgreSQL on this 2-core machine). */
const issue2 = (tessera: RunResult): TargetCheck[] => {
  const at = check(2, tessera.database === 'PostgreSQL')
  const gs16 = stats(tessera, 'get-session c16', 'get-session')
  return [
    at('get-session c16 req/s', served(gs16), '>=', 5000),
    at('get-session c16 p99 ms', p99(gs16), '<', 10),
    at('sign-in c16 req/s', served(stats(tessera, 'sign-in c16', 'sign-in')), '>=', 21),
    at('sign-up c16 req/s', served(stats(tessera, 'sign-up c16', 'sign-up')), '>=', 20),
    at('mixed c64 sign-ins still served req/s', served(stats(tessera, 'mixed c64', 'sign-in')), '>=', 1),
  ]
}

/** Issue 8: beside better-auth in the same run, on both databases. */
const issue8 = ({ database, tessera, betterAuth }: DatabaseRuns): TargetCheck[] => {
  const at = check(8, true)
  const rateRatio = (scenario: string, kind: Kind) =>
    ratio(served(stats(tessera, scenario, kind)), served(stats(betterAuth, scenario, kind)))
  const p99Ratio = (scenario: string, kind: Kind) =>
    ratio(p99(stats(tessera, scenario, kind)), p99(stats(betterAuth, scenario, kind)))
  return [
    at('sign-in c4 rate ÷ better-auth', rateRatio('sign-in c4', 'sign-in'), '>=', 0.97),
    at('sign-in c16 rate ÷ better-auth', rateRatio('sign-in c16', 'sign-in'), '>=', 0.97),
    at('sign-up c16 rate ÷ better-auth', rateRatio('sign-up c16', 'sign-up'), '>=', 0.97),
    at('mixed c64 sign-in p99 ÷ better-auth', p99Ratio('mixed c64', 'sign-in'), '<=', 1),
    at('mixed c64 get-session p99 ms', p99(stats(tessera, 'mixed c64', 'get-session')), '<', 25),
    // The same mix at the same offered rates for both (bench/open-loop.ts).
    at('mixed open sign-in p99 ÷ better-auth', p99Ratio(MIXED_OPEN, 'sign-in'), '<=', 1),
    at('mixed open get-session p99 ms', p99(stats(tessera, MIXED_OPEN, 'get-session')), '<', 25),
    at('list-sessions c16 rate ÷ better-auth', rateRatio('list-sessions c16', 'list-sessions'), '>=', 15),
    at('server peak RSS MB', tessera.peakRssBytes / MB, '<=', database === 'PostgreSQL' ? 200 : 400),
  ]
}

/** Issue 11: the organization reads at concurrency 16 (set for PostgreSQL). */
const issue11 = (tessera: RunResult): TargetCheck[] => {
  const at = check(11, tessera.database === 'PostgreSQL')
  return (
    [
      ['organization/list c16', 'organization/list'],
      ['get-full-organization c16', 'get-full-organization'],
      ['organization/has-permission c16', 'organization/has-permission'],
    ] as const
  ).flatMap(([scenario, kind]) => {
    const found = stats(tessera, scenario, kind)
    return [at(`${scenario} req/s`, served(found), '>=', 3000), at(`${scenario} p99 ms`, p99(found), '<', 15)]
  })
}

/** Issue 14: an operator's search among 100,000 users (PostgreSQL only, bench/admin-users.ts). */
const issue14 = (tessera: RunResult): TargetCheck[] => {
  const at = check(14, tessera.database === 'PostgreSQL')
  return (['email', 'name'] as const).map((field) =>
    at(
      `list-users ${field} 100k c16 p99 ms`,
      p99(stats(tessera, `admin/list-users ${field} search 100k c16`, 'admin/list-users')),
      '<',
      50,
    ),
  )
}

/** Issue 33: a whole passkey sign-in at least better-auth's rate; verify-totp alone (PostgreSQL). */
const issue33 = ({ tessera, betterAuth }: DatabaseRuns): TargetCheck[] => {
  const passkey = (run: RunResult | null) =>
    served(stats(run, 'passkey sign-in c16', 'passkey/verify-authentication'))
  const alone = stats(tessera, 'verify-totp alone c16', 'two-factor/verify-totp')
  const onPostgres = check(33, tessera.database === 'PostgreSQL')
  return [
    check(33, true)(
      'passkey sign-in c16 rate ÷ better-auth',
      ratio(passkey(tessera), passkey(betterAuth)),
      '>=',
      1,
    ),
    onPostgres('verify-totp alone c16 req/s', served(alone), '>=', 2000),
    onPostgres('verify-totp alone c16 p99 ms', p99(alone), '<', 15),
  ]
}

/** Issue 35: code exchange, refresh and introspection at 5× better-auth; introspection p99 under 10 ms (PostgreSQL). */
const issue35 = ({ tessera, betterAuth }: DatabaseRuns): TargetCheck[] => {
  const exchange = (run: RunResult | null) =>
    served(stats(run, 'oauth2/token code exchange c16', 'oauth2/token'))
  const refresh = (run: RunResult | null) => served(stats(run, 'oauth2/token refresh c16', 'oauth2/token'))
  const introspect = (run: RunResult | null) =>
    served(stats(run, 'oauth2/introspect c16', 'oauth2/introspect'))
  const onPostgres = check(35, tessera.database === 'PostgreSQL')
  return [
    onPostgres(
      'oauth2/token code exchange c16 rate ÷ better-auth',
      ratio(exchange(tessera), exchange(betterAuth)),
      '>=',
      5,
    ),
    onPostgres(
      'oauth2/token refresh c16 rate ÷ better-auth',
      ratio(refresh(tessera), refresh(betterAuth)),
      '>=',
      5,
    ),
    onPostgres(
      'oauth2/introspect c16 rate ÷ better-auth',
      ratio(introspect(tessera), introspect(betterAuth)),
      '>=',
      5,
    ),
    onPostgres(
      'oauth2/introspect c16 p99 ms',
      p99(stats(tessera, 'oauth2/introspect c16', 'oauth2/introspect')),
      '<',
      10,
    ),
  ]
}

/** Issue 36: SCIM over a directory of 10,000 (bench/scim.ts; set for PostgreSQL). */
const issue36 = (tessera: RunResult): TargetCheck[] => {
  const at = check(36, tessera.database === 'PostgreSQL')
  return [
    at(
      'scim/Users filter c16 p99 ms',
      p99(stats(tessera, 'scim/Users filter c16', 'scim/Users filter')),
      '<',
      25,
    ),
    at(
      'scim/Users create c16 req/s',
      served(stats(tessera, 'scim/Users create c16', 'scim/Users create')),
      '>=',
      200,
    ),
  ]
}

export const checkTargets = (runs: DatabaseRuns): TargetCheck[] => [
  ...issue2(runs.tessera),
  ...issue8(runs),
  ...issue11(runs.tessera),
  ...issue14(runs.tessera),
  ...issue33(runs),
  ...issue35(runs),
  ...issue36(runs.tessera),
]

const pad = (value: string, width: number) => value.padEnd(width)
const padLeft = (value: string, width: number) => value.padStart(width)

const number = (value: number | null): string => {
  if (value === null || !Number.isFinite(value)) return '—'
  if (value >= 100) return Math.round(value).toLocaleString('en-US')
  if (value >= 10) return value.toFixed(1)
  return value.toFixed(2)
}

const COLUMNS = ['scenario', 'request', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'wrong', 'errors']
const WIDTHS = [32, 28, 9, 8, 8, 8, 8, 6, 7]
// Above this many cores used by unrelated processes, the figures say more about them than us.
const BUSY_MACHINE_CORES = 0.2

const cpuCell = (cpu: CpuUse) =>
  [cpu.server, cpu.database, cpu.loadGenerator, cpu.other].map((cores) => cores.toFixed(2)).join(' / ')

/** The first `left` cells are left-aligned text, the rest right-aligned figures. */
const row = (cells: readonly string[], widths: readonly number[], left = 2): string =>
  cells.map((cell, i) => (i < left ? pad(cell, widths[i] ?? 0) : padLeft(cell, widths[i] ?? 0))).join(' ')

/** What an open-loop scenario offered and whether the load generator kept to its schedule. */
const openLoopNote = ({ name, connections }: MeasuredScenario, openLoop: OpenLoopFacts): string => {
  const offered = Object.entries(openLoop.offeredPerSecond)
    .map(([kind, perSecond]) => `${kind} ${number(perSecond)}/s`)
    .join(', ')
  return (
    `${name}: open loop, offered ${offered} (scheduled in the window), latencies from each request's ` +
    `scheduled time; up to ${connections} in flight, ${openLoop.waitedForConnection} waited for a ` +
    `connection; 99% sent within ${number(openLoop.sendLagP99Ms)} ms of their time`
  )
}

export const formatRun = (run: RunResult): string => {
  const lines = [
    `── ${run.server} on ${run.database}: ${run.users} users seeded in ${run.seedSeconds.toFixed(1)} s ──`,
    `${row(COLUMNS, WIDTHS)}   CPU cores: server / database / load generator / other`,
  ]
  for (const scenario of run.scenarios) {
    if (Object.keys(scenario.byKind).length === 0)
      lines.push(
        `${row([scenario.name, '(no responses)', '', '', '', '', '', '', String(scenario.errors)], WIDTHS)}   ${cpuCell(scenario.cpu)}`,
      )
    let first = true
    for (const [kind, s] of Object.entries(scenario.byKind)) {
      lines.push(
        row(
          [
            first ? scenario.name : '',
            kind,
            number(s.perSecond),
            number(s.p50Ms),
            number(s.p99Ms),
            number(s.maxMs),
            String(s.non2xx),
            String(s.incorrect),
            first ? String(scenario.errors) : '',
          ],
          WIDTHS,
        ) + (first ? `   ${cpuCell(scenario.cpu)}` : ''),
      )
      first = false
    }
  }
  const rssSteps = run.scenarios.map((s) => `${s.name} ${number(s.peakRssBytes / MB)}`).join(', ')
  lines.push(
    `server peak RSS: ${number(run.peakRssBytes / MB)} MB (after seeding ${number(run.seedPeakRssBytes / MB)}; ${rssSteps})`,
  )
  for (const scenario of run.scenarios)
    for (const [kind, s] of Object.entries(scenario.byKind))
      if (s.firstFailure) lines.push(`${scenario.name}, ${kind}: first wrong answer: ${s.firstFailure}`)
  for (const scenario of run.scenarios)
    if (scenario.openLoop) lines.push(openLoopNote(scenario, scenario.openLoop))
  for (const scenario of run.scenarios)
    if (scenario.runtime) lines.push(describeRuntimeWindow(scenario.name, scenario.runtime))
  for (const note of run.notes) lines.push(note)
  const busiest = Math.max(0, ...run.scenarios.map((s) => s.cpu.other))
  if (busiest > BUSY_MACHINE_CORES)
    lines.push(
      `WARNING: other processes used up to ${busiest.toFixed(2)} cores during a scenario; figures are unreliable.`,
    )
  return lines.join('\n')
}

/**
 * How many sign-ins each server had waiting at once in `mixed c64`, on average: its sign-in rate
 * times their mean wait (Little's law). Of the 64 connections, those not waiting on a get-session
 * wait on a sign-in, so the server quicker at get-session has more of them queued, and each waits
 * that many over its rate (bench/README.md, "mixed c64"). Null when either server was not measured.
 */
export const closedMixQueues = ({ tessera, betterAuth }: DatabaseRuns): string | null => {
  const inFlight = (run: RunResult | null) => {
    const signIn = stats(run, 'mixed c64', 'sign-in')
    return signIn ? (signIn.perSecond * signIn.meanMs) / 1000 : null
  }
  const ours = inFlight(tessera)
  const theirs = inFlight(betterAuth)
  if (ours === null || theirs === null || Number.isNaN(ours) || Number.isNaN(theirs)) return null
  return (
    `mixed c64: sign-ins waiting at once on average (rate × mean wait): Tessera ${number(ours)}, ` +
    `better-auth ${number(theirs)} of 64 connections; each waits about that many over its server's rate`
  )
}

/** The scenarios whose every request checks a password: where the two servers' costs part. */
const PASSWORD_SCENARIOS = ['sign-in c4', 'sign-in c16', 'sign-up c16']

/**
 * What one answer of each password scenario cost each server, in CPU milliseconds: its event loop,
 * its other threads (scrypt, V8's helpers) and its database. Tessera's scrypt costs about 60% of
 * better-auth's (WebAssembly with SIMD); the rest is what the event loop and the database add.
 * Null when either server was not measured or ran none of these scenarios.
 */
export const passwordCosts = (runs: DatabaseRuns): string | null =>
  answerCosts(runs, PASSWORD_SCENARIOS, 'CPU ms per answer (event loop + other server threads + database):')

/** Issue 35's scenarios (bench/oauth.ts): where the OpenID provider's CPU goes, per answer. */
const OAUTH_SCENARIOS = [
  'oauth2/token code exchange c16',
  'oauth2/token refresh c16',
  'oauth2/token client_credentials c16',
  'oauth2/introspect c16',
  'oauth2/userinfo c16',
]

export const oauthCosts = (runs: DatabaseRuns): string | null =>
  answerCosts(
    runs,
    OAUTH_SCENARIOS,
    'OAuth: CPU ms per answer (event loop + other server threads + database):',
  )

const answerCosts = (
  { tessera, betterAuth }: DatabaseRuns,
  scenarios: readonly string[],
  heading: string,
): string | null => {
  if (!tessera || !betterAuth) return null
  const cost = (run: RunResult, name: string) => {
    const scenario = run.scenarios.find((s) => s.name === name)
    const answered = Object.values(scenario?.byKind ?? {}).reduce((sum, s) => sum + s.perSecond, 0)
    if (!scenario || answered === 0) return null
    const ms = (cores: number) => (cores * 1000) / answered
    const { server, serverEventLoop, database } = scenario.cpu
    const parts = [ms(serverEventLoop), ms(server - serverEventLoop), ms(database)]
    const total = parts.reduce((sum, part) => sum + part, 0)
    return `${parts.map((part) => part.toFixed(1)).join(' + ')} = ${total.toFixed(1)}`
  }
  const lines = scenarios.flatMap((name) => {
    const ours = cost(tessera, name)
    const theirs = cost(betterAuth, name)
    return ours && theirs ? [`  ${name}: Tessera ${ours}, better-auth ${theirs}`] : []
  })
  if (lines.length === 0) return null
  return [heading, ...lines].join('\n')
}

const SIDE_COLUMNS = [
  'scenario',
  'request',
  'Tessera/s',
  'b-a/s',
  'ratio',
  'T p99 ms',
  'b-a p99',
  'p99 ratio',
]
const SIDE_WIDTHS = [32, 28, 10, 10, 7, 9, 9, 9]

/** Tessera beside better-auth, scenario by scenario; ratios are Tessera's over better-auth's. */
export const formatComparison = ({
  database,
  tessera,
  betterAuth,
  betterAuthSkipped,
}: DatabaseRuns): string => {
  if (!betterAuth) return `── ${database}: better-auth not run (${betterAuthSkipped ?? 'skipped'}) ──`
  const lines = [
    `── ${database}: Tessera beside better-auth 1.7.5 (ratio = Tessera ÷ better-auth; wrong answers count as not served) ──`,
    row(SIDE_COLUMNS, SIDE_WIDTHS),
  ]
  for (const scenario of betterAuth.scenarios) {
    // A kind either server answered; one that got no answer in the window shows as 0 req/s.
    const kinds = new Set([
      ...Object.keys(scenario.byKind),
      ...Object.keys(tessera.scenarios.find((s) => s.name === scenario.name)?.byKind ?? {}),
    ] as Kind[])
    if (kinds.size === 0) lines.push(row([scenario.name, '(no responses)'], SIDE_WIDTHS))
    let first = true
    for (const kind of kinds) {
      const ours = stats(tessera, scenario.name, kind)
      const theirs = stats(betterAuth, scenario.name, kind)
      lines.push(
        row(
          [
            first ? scenario.name : '',
            kind,
            number(served(ours)),
            number(served(theirs)),
            number(ratio(served(ours), served(theirs))),
            number(p99(ours)),
            number(p99(theirs)),
            number(ratio(p99(ours), p99(theirs))),
          ],
          SIDE_WIDTHS,
        ),
      )
      first = false
    }
  }
  lines.push(
    row(
      [
        'server peak RSS MB',
        '',
        number(tessera.peakRssBytes / MB),
        number(betterAuth.peakRssBytes / MB),
        number(ratio(tessera.peakRssBytes, betterAuth.peakRssBytes)),
      ],
      SIDE_WIDTHS,
    ),
  )
  const queues = closedMixQueues({ database, tessera, betterAuth })
  if (queues) lines.push(queues)
  const costs = passwordCosts({ database, tessera, betterAuth })
  if (costs) lines.push(costs)
  const oauth = oauthCosts({ database, tessera, betterAuth })
  if (oauth) lines.push(oauth)
  return lines.join('\n')
}

export const formatTargets = (runs: DatabaseRuns): string => {
  const lines = [
    `Targets on ${runs.database} (issues 2 and 11 are set for PostgreSQL; elsewhere for reference):`,
  ]
  for (const t of checkTargets(runs)) {
    const verdict = t.met === null ? 'not run' : t.met ? 'met' : 'MISSED'
    lines.push(
      `  #${pad(String(t.issue), 3)} ${pad(t.target, 40)} ${padLeft(number(t.measured), 9)}  ${pad(t.comparison, 2)} ${padLeft(String(t.limit), 5)}  ${verdict}${t.applies ? '' : ' (reference)'}`,
    )
  }
  return lines.join('\n')
}
