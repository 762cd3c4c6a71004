import { setTimeout as sleep } from 'node:timers/promises'
import { expect, test } from 'vitest'
import { watchRuntime } from '../infra/runtime/runtime-metrics.js'
import {
  describeRuntimeWindow,
  gcPausesByKind,
  mergeRuntimeWindows,
  parseRuntime,
  runtimeBetween,
} from './runtime-window.js'

test('two scrapes of the runtime metrics tell the stalls and collections between them', async () => {
  const watch = watchRuntime({ tickMs: 5 })
  try {
    await sleep(30)
    const before = parseRuntime(`# HELP other\nother_metric 3\n${watch.metrics()}`)
    // A stall of 130 ms, and garbage enough for the young generation to be collected.
    const until = performance.now() + 130
    let kept: unknown[] = []
    while (performance.now() < until) {
      kept.push({ at: performance.now() })
      if (kept.length > 1_000) kept = []
    }
    await sleep(50)
    const after = parseRuntime(watch.metrics())
    if (!before || !after) throw new Error('the runtime series are missing')
    const window = runtimeBetween(before, after)
    expect(window.loopDelaysOver100ms).toBeGreaterThanOrEqual(1)
    expect(window.loopDelaysOver50ms).toBeGreaterThanOrEqual(window.loopDelaysOver100ms)
    expect(window.loopDelaysOver25ms).toBeGreaterThanOrEqual(window.loopDelaysOver50ms)
    expect(window.longestDelayAtMostMs).toBeGreaterThanOrEqual(250)
    expect(window.gcPauses).toBeGreaterThan(0)
    expect(window.gcPauseMs).toBeGreaterThan(0)
    // Kind by kind, the same collections: the young generation's among them.
    const byKind = gcPausesByKind(before, after)
    expect(byKind.find(({ kind }) => kind === 'minor')?.pauses).toBeGreaterThan(0)
    expect(byKind.reduce((sum, { pauses }) => sum + pauses, 0)).toBe(window.gcPauses)
    expect(gcPausesByKind(after, after).every(({ pauses, ms }) => pauses === 0 && ms === 0)).toBe(true)
    // Nothing happened between a scrape and itself.
    expect(runtimeBetween(after, after)).toMatchObject({ loopDelaysOver25ms: 0, gcPauses: 0, gcPauseMs: 0 })
    expect(runtimeBetween(after, after).longestDelayAtMostMs).toBe(5)

    const twice = mergeRuntimeWindows([window, runtimeBetween(after, after)])
    expect(twice).toMatchObject({
      loopDelaysOver100ms: window.loopDelaysOver100ms,
      gcPauses: window.gcPauses,
    })
    expect(describeRuntimeWindow('get-session', twice)).toMatch(/^get-session: event loop busy > 25 ms \d+×/)
  } finally {
    watch.stop()
  }
})

test('an answer without the runtime series (better-auth has none) is told apart', () => {
  expect(parseRuntime('tessera_ready 1\n')).toBeNull()
})
