/// Shared by the fault tests: printing their figures (the issue asks for them in the note) and
/// small timing helpers.

/** Prints one test's figures on a line of their own, easy to find in the run's output. */
export const printFigures = (test: string, figures: Record<string, unknown>): void => {
  const line = Object.entries(figures)
    .map(([name, value]) => `${name}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' ')
  console.log(`[fault figures] ${test}: ${line}`)
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const seconds = (ms: number) => Math.round(ms / 100) / 10

/** Counts of each value, e.g. HTTP statuses. */
export const tally = <T extends string | number>(values: readonly T[]): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1
  return counts
}

/** Polls `check` until it holds or `ms` pass; returns how long it took (or throws). */
export const waitUntil = async (what: string, check: () => Promise<boolean>, ms: number): Promise<number> => {
  const started = Date.now()
  while (Date.now() - started < ms) {
    if (await check().catch(() => false)) return Date.now() - started
    await sleep(50)
  }
  throw new Error(`${what}: not within ${ms} ms`)
}
