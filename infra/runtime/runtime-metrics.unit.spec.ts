import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { type RuntimeMetrics, watchRuntime } from './runtime-metrics.js'

/** The value of one series, `name{labels}`, in Prometheus text; undefined when it is missing. */
const series = (text: string, name: string, labels = ''): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `))
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1))
}

const busyFor = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // The event loop can do nothing else meanwhile: that is the stall to be measured.
  }
}

describe('runtime metrics', () => {
  let watch: RuntimeMetrics | undefined
  afterEach(() => watch?.stop())

  test('a stretch of busy code shows as an event-loop delay of at least its length', async () => {
    watch = watchRuntime({ tickMs: 10 })
    await sleep(50)
    const before = watch.metrics()
    busyFor(150)
    await sleep(30)
    const after = watch.metrics()
    const count = (text: string, le: string) =>
      series(text, 'tessera_event_loop_delay_seconds_bucket', `le="${le}"`) ?? Number.NaN
    const above100ms = (text: string) => count(text, '+Inf') - count(text, '0.1')
    // 150 ms busy, less the tick it was waiting for (more if the machine held the process back).
    expect(above100ms(after) - above100ms(before)).toBeGreaterThanOrEqual(1)
    const sum = (text: string) => series(text, 'tessera_event_loop_delay_seconds_sum') ?? Number.NaN
    expect(sum(after) - sum(before)).toBeGreaterThan(0.13)
    // Buckets are cumulative and the count is the last of them.
    expect(count(after, '0.005')).toBeLessThanOrEqual(count(after, '0.01'))
    expect(series(after, 'tessera_event_loop_delay_seconds_count')).toBe(count(after, '+Inf'))
  })

  test('garbage collections are counted by kind, with their pauses', async () => {
    watch = watchRuntime()
    const minors = () =>
      series(watch?.metrics() ?? '', 'nodejs_gc_duration_seconds_count', 'kind="minor"') ?? 0
    expect(minors()).toBe(0)
    // Short-lived objects fill the young generation: scavenges follow.
    let kept: unknown[] = []
    for (let i = 0; i < 2_000_000; i += 1) {
      kept.push({ i })
      if (kept.length > 1_000) kept = []
    }
    // The observer hears of a collection a few event-loop turns after it.
    await vi.waitFor(() => expect(minors()).toBeGreaterThan(0), { timeout: 5_000, interval: 20 })
    const text = watch.metrics()
    expect(series(text, 'nodejs_gc_duration_seconds_sum', 'kind="minor"')).toBeGreaterThan(0)
    expect(series(text, 'nodejs_gc_duration_seconds_bucket', 'kind="minor",le="+Inf"')).toBe(minors())
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram')
  })

  test('a stopped watch no longer counts', async () => {
    watch = watchRuntime({ tickMs: 5 })
    await sleep(30)
    watch.stop()
    const stopped = watch.metrics()
    await sleep(30)
    expect(watch.metrics()).toBe(stopped)
  })
})
