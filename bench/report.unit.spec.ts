import { expect, test } from 'vitest'
import { type Answer, kindStats } from './load.js'
import {
  closedMixQueues,
  type DatabaseRuns,
  passwordCosts,
  type RunResult,
  type ServerLabel,
} from './report.js'
import { mergeRounds, windowRatios } from './rounds.js'

const answer: Answer = { kind: 'sign-in', status: 200, correct: true, sentAt: 0, doneAt: 0, ms: 0 }

/** A `mixed c64` whose sign-ins took these latencies, all answered within a 10 s window. */
const mixedRun = (server: ServerLabel, signInLatencies: number[]): RunResult => ({
  server,
  database: 'PostgreSQL',
  users: 1000,
  seedSeconds: 1,
  seedPeakRssBytes: 0,
  peakRssBytes: 0,
  notes: [],
  scenarios: [
    {
      name: 'mixed c64',
      connections: 64,
      seconds: 10,
      errors: 0,
      byKind: {
        'sign-in': kindStats(
          signInLatencies,
          signInLatencies.map(() => answer),
          10,
          undefined,
        ),
      },
      cpu: { server: 0, serverEventLoop: 0, database: 0, loadGenerator: 0, other: 0, cores: 2 },
      peakRssBytes: 0,
    },
  ],
})

test("the closed mix's sign-in queues are each server's rate times its mean wait", () => {
  // 180 sign-ins in 10 s (18/s) waiting 3.5 s each: 63 at once; 160 (16/s) waiting 0.9 s: 14.4.
  const runs: DatabaseRuns = {
    database: 'PostgreSQL',
    tessera: mixedRun(
      'Tessera',
      Array.from({ length: 180 }, () => 3500),
    ),
    betterAuth: mixedRun('better-auth', [
      ...Array.from({ length: 80 }, () => 600),
      ...Array.from({ length: 80 }, () => 1200),
    ]),
  }
  expect(closedMixQueues(runs)).toBe(
    'mixed c64: sign-ins waiting at once on average (rate × mean wait): Tessera 63.0, better-auth 14.4 ' +
      "of 64 connections; each waits about that many over its server's rate",
  )
  expect(closedMixQueues({ ...runs, betterAuth: null })).toBeNull()
})

test('merged windows keep the mean wait, weighted by the requests of each', () => {
  const window = (latencies: number[]) => mixedRun('Tessera', latencies).scenarios[0]
  const first = window(Array.from({ length: 30 }, () => 100))
  const second = window(Array.from({ length: 10 }, () => 500))
  if (!first || !second) throw new Error('no scenario')
  expect(mergeRounds([first, second]).byKind['sign-in']?.meanMs).toBe(200)
})

/** A run with one `sign-in c16` answering `perSecond` sign-ins on this CPU. */
const signInRun = (
  server: ServerLabel,
  perSecond: number,
  cpu: RunResult['scenarios'][number]['cpu'],
): RunResult => {
  const run = mixedRun(server, [])
  const answers = Array.from({ length: perSecond * 10 }, () => 800)
  return {
    ...run,
    scenarios: [
      {
        name: 'sign-in c16',
        connections: 16,
        seconds: 10,
        errors: 0,
        byKind: {
          'sign-in': kindStats(
            answers,
            answers.map(() => answer),
            10,
            undefined,
          ),
        },
        cpu,
        peakRssBytes: 0,
      },
    ],
  }
}

test("each password answer's CPU is split into event loop, the server's other threads and database", () => {
  // 20 sign-ins a second on 1.9 cores of server (0.09 of them the event loop) and 0.08 of database.
  const cpu = { server: 1.9, serverEventLoop: 0.09, database: 0.08, loadGenerator: 0.01, other: 0, cores: 2 }
  const runs: DatabaseRuns = {
    database: 'PostgreSQL',
    tessera: signInRun('Tessera', 20, cpu),
    betterAuth: signInRun('better-auth', 25, { ...cpu, database: 0.02 }),
  }
  expect(passwordCosts(runs)).toBe(
    'CPU ms per answer (event loop + other server threads + database):\n' +
      '  sign-in c16: Tessera 4.5 + 90.5 + 4.0 = 99.0, better-auth 3.6 + 72.4 + 0.8 = 76.8',
  )
  // Without better-auth, or without any password scenario, there is nothing to set side by side.
  expect(passwordCosts({ ...runs, betterAuth: null })).toBeNull()
  expect(
    passwordCosts({
      ...runs,
      tessera: mixedRun('Tessera', [800]),
      betterAuth: mixedRun('better-auth', [800]),
    }),
  ).toBeNull()
})

test("window by window, each of Tessera's windows is set against better-auth's of the same pair", () => {
  const window = (server: ServerLabel, perSecond: number) => {
    const scenario = signInRun(server, perSecond, {
      server: 0,
      serverEventLoop: 0,
      database: 0,
      loadGenerator: 0,
      other: 0,
      cores: 2,
    }).scenarios[0]
    if (!scenario) throw new Error('no scenario')
    return scenario
  }
  const ratios = windowRatios(
    [window('Tessera', 20), window('Tessera', 18), window('Tessera', 19)],
    [window('better-auth', 20), window('better-auth', 20), window('better-auth', 19)],
  )
  expect(ratios['sign-in']).toEqual([1, 0.9, 1])
  // A window better-auth did not run is no pair.
  expect(
    windowRatios([window('Tessera', 20), window('Tessera', 10)], [window('better-auth', 10)])['sign-in'],
  ).toEqual([2])
})
