/// How run.ts learns what to run: a scenario group is a few scenarios, the servers they run on, and
/// what must be seeded for them beyond the users. To add scenarios, write a group in a module of
/// its own (as bench/organizations.ts does) and list it in run.ts's SCENARIO_GROUPS.

import type { ScenarioSpec, Timing } from './load.js'
import type { MixedOpenRates } from './password-capacity.js'
import type { ServerLabel } from './report.js'
import type { BenchUser } from './seed.js'

/** What a group's seeding gets: the server, its seeded users, run-unique emails, the timing. */
export type SeedTarget = {
  baseUrl: string
  users: readonly BenchUser[]
  email(label: string, n: number): string
  timing: Timing
  /** Lines printed under the server's table, e.g. how something was seeded. */
  notes: string[]
  /** The PostgreSQL server's URL, for seeding straight into it; none on PGlite. */
  databaseUrl?: string
  /** Arrivals a second in the open-loop mix, set from this machine's password checks a second. */
  mixedOpen: MixedOpenRates
}

export type ScenarioGroup = {
  /** A name `BENCH_ONLY` may give to pick all of the group's scenarios (bench/choose.ts). */
  group?: string
  /**
   * How many of the seeded users its scenarios use (all when absent): when BENCH_ONLY picks only
   * groups that need few, only that many are signed up.
   */
  usersNeeded?: number
  /** Its scenarios need the feature plugins on both servers (bench/features-config.ts). */
  needsFeatures?: boolean
  runsOn: readonly ServerLabel[]
  /** The scenarios' names, known before anything is seeded (BENCH_ONLY picks by them). */
  names: readonly string[]
  /** Seeds on the server right before its scenarios run there; only when BENCH_ONLY picks one. */
  prepare(target: SeedTarget): Promise<ScenarioSpec[]>
}

export const BOTH: readonly ServerLabel[] = ['Tessera', 'better-auth']
export const TESSERA_ONLY: readonly ServerLabel[] = ['Tessera']

const NO_TARGET: SeedTarget = {
  baseUrl: '',
  users: [],
  email: () => '',
  timing: { durationSeconds: 0, warmupSeconds: 0 },
  notes: [],
  mixedOpen: { getSession: 0, signIn: 0 },
}

/**
 * A group from its seeding and its scenarios. `unseeded` stands in for what `seed` returns so
 * that the names are known without a server: the scenarios must not use it before they run.
 */
export const group = <T>(spec: {
  group?: string
  usersNeeded?: number
  needsFeatures?: boolean
  runsOn: readonly ServerLabel[]
  unseeded: T
  seed(target: SeedTarget): Promise<T>
  scenarios(seeded: T, target: SeedTarget): ScenarioSpec[]
}): ScenarioGroup => ({
  ...(spec.group === undefined ? {} : { group: spec.group }),
  ...(spec.usersNeeded === undefined ? {} : { usersNeeded: spec.usersNeeded }),
  ...(spec.needsFeatures ? { needsFeatures: true } : {}),
  runsOn: spec.runsOn,
  names: spec.scenarios(spec.unseeded, NO_TARGET).map((scenario) => scenario.name),
  prepare: async (target) => spec.scenarios(await spec.seed(target), target),
})

/** For groups that need nothing beyond the seeded users. */
export const nothingToSeed = async (): Promise<undefined> => undefined
