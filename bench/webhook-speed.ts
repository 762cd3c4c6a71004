/// Pure webhook delivery throughput (issue 34), after `webhooks update-user c16`: every update that
/// scenario made is then in the log, delivered once to each endpoint. `POST /webhook/replay` from the
/// start of the log, for every endpoint at once, hands their workers the whole log (events committed
/// in bulk, no commands running): each endpoint in its own order, the endpoints side by side. The
/// receiver counts every delivery (sign-ups' and updates' alike) and notes when each update's name
/// arrives again at each endpoint. Figures (`webhook replay`): deliveries received a second, from the
/// first replay request to the last name's return; p50 and p99 are how long after the requests half
/// and 99% of the names had come back. A name not back within REPLAY_DRAIN_MS counts as wrong.

import { BENCH_SERVER_KEY, SERVER_KEY_HEADER } from './api-keys.js'
import type { KindStats } from './load.js'
import { JSON_HEADERS } from './shots.js'
import type { Receiver } from './webhook-receiver.js'

const REPLAY_DRAIN_MS = 120_000

const percentileOf = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN)

/** Replays every endpoint from the start of the log, all at once. */
export const replayAll = (baseUrl: string, endpointIds: readonly string[]) =>
  Promise.all(
    endpointIds.map(async (endpointId) => {
      const response = await fetch(`${baseUrl}/api/auth/webhook/replay`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
        body: JSON.stringify({ endpointId }),
      })
      if (!response.ok) throw new Error(`webhook/replay failed: ${response.status} ${await response.text()}`)
    }),
  )

/** When each of `keys` (a name at an endpoint) arrives again, within REPLAY_DRAIN_MS. */
const arrivalsOf = (receiver: Receiver, keys: ReadonlySet<string>) => {
  const arrived = new Map<string, number>()
  let allBack: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    allBack = resolve
  })
  receiver.listen((key, at) => {
    if (!keys.has(key) || arrived.has(key)) return
    arrived.set(key, at)
    if (arrived.size === keys.size) allBack()
  })
  const drained = async () => {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, REPLAY_DRAIN_MS)))])
    clearTimeout(timer)
  }
  return { arrived, drained }
}

export const measureReplay = async (
  baseUrl: string,
  endpointIds: readonly string[],
  receiver: Receiver,
  keys: ReadonlySet<string>,
): Promise<KindStats> => {
  const { arrived, drained } = arrivalsOf(receiver, keys)
  const countBefore = receiver.count()
  const started = performance.now()
  await replayAll(baseUrl, endpointIds)
  await drained()
  const deliveries = receiver.count() - countBefore
  const times = [...arrived.values()].map((at) => at - started).sort((a, b) => a - b)
  const seconds = (times.at(-1) ?? 0) / 1000
  const missing = keys.size - arrived.size
  return {
    requests: deliveries,
    perSecond: seconds > 0 ? deliveries / seconds : 0,
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
