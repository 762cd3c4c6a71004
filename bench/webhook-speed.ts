/// Pure webhook delivery throughput (issue 34), after `webhooks update-user c16`: every update that
/// scenario made is then in the log, delivered once. `POST /webhook/replay` from the start of the log
/// hands the endpoint's worker all of them at once (events committed in bulk, no commands running),
/// and the receiver notes when each name arrives again. Figures (`webhook replay`): names received
/// again a second, from the replay's request to the last one; p50 and p99 are how long after the
/// request half and 99% of them had arrived. A name not back within REPLAY_DRAIN_MS counts as wrong.

import { BENCH_SERVER_KEY, SERVER_KEY_HEADER } from './api-keys.js'
import type { KindStats } from './load.js'
import { JSON_HEADERS } from './shots.js'

const REPLAY_DRAIN_MS = 120_000

type NameListener = (name: string, at: number) => void

const percentileOf = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN)

export const measureReplay = async (
  baseUrl: string,
  endpointId: string,
  onName: (listener: NameListener) => void,
  names: ReadonlySet<string>,
): Promise<KindStats> => {
  const arrived = new Map<string, number>()
  let allBack: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    allBack = resolve
  })
  onName((name, at) => {
    if (!names.has(name) || arrived.has(name)) return
    arrived.set(name, at)
    if (arrived.size === names.size) allBack()
  })
  const started = performance.now()
  const response = await fetch(`${baseUrl}/api/auth/webhook/replay`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
    body: JSON.stringify({ endpointId }),
  })
  if (!response.ok) throw new Error(`webhook/replay failed: ${response.status} ${await response.text()}`)
  let timer: NodeJS.Timeout | undefined
  await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, REPLAY_DRAIN_MS)))])
  clearTimeout(timer)
  const times = [...arrived.values()].map((at) => at - started).sort((a, b) => a - b)
  const seconds = (times.at(-1) ?? 0) / 1000
  const missing = names.size - arrived.size
  return {
    requests: arrived.size,
    perSecond: seconds > 0 ? arrived.size / seconds : 0,
    p50Ms: percentileOf(times, 50),
    p99Ms: percentileOf(times, 99),
    meanMs: times.length === 0 ? Number.NaN : times.reduce((sum, ms) => sum + ms, 0) / times.length,
    maxMs: times.at(-1) ?? Number.NaN,
    non2xx: 0,
    incorrect: missing,
    ...(missing > 0
      ? { firstFailure: `${missing} replayed updates not delivered within ${REPLAY_DRAIN_MS} ms` }
      : {}),
  }
}
