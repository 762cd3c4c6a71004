/// Prints what bench/query-counter.ts recorded in the server: for the busiest stretch of seconds
/// (the measured scenario, when one scenario ran), statements and CPU milliseconds per request,
/// and the statements by shape. `node dist/bench/query-counts.js /tmp/counts.jsonl [minPerSecond]`.

import { readFileSync } from 'node:fs'

type Snapshot = {
  at: number
  requests: number
  queries: number
  cpuMs: number
  shapes: Record<string, number>
}

const [path, minimum = '20'] = process.argv.slice(2)
if (!path) throw new Error('usage: query-counts <file.jsonl> [minimum requests a second]')
const snapshots = readFileSync(path, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Snapshot)

/** The longest run of seconds each serving at least `minimum` requests. */
const busiest = (floor: number): [Snapshot, Snapshot] | null => {
  let best: [number, number] | null = null
  let start = 0
  for (let i = 1; i <= snapshots.length; i++) {
    const busy =
      i < snapshots.length &&
      (snapshots[i] as Snapshot).requests - (snapshots[i - 1] as Snapshot).requests >= floor
    if (busy) continue
    if (i - 1 > start && (!best || i - 1 - start > best[1] - best[0])) best = [start, i - 1]
    start = i
  }
  return best ? [snapshots[best[0]] as Snapshot, snapshots[best[1]] as Snapshot] : null
}

const window = busiest(Number(minimum))
if (!window) {
  console.log('no stretch of busy seconds found')
} else {
  const [from, to] = window
  const requests = to.requests - from.requests
  const seconds = (to.at - from.at) / 1000
  console.log(
    `${requests} requests in ${seconds.toFixed(0)} s (${(requests / seconds).toFixed(1)}/s): ` +
      `${((to.queries - from.queries) / requests).toFixed(2)} statements and ` +
      `${((to.cpuMs - from.cpuMs) / requests).toFixed(2)} CPU ms (server process) per request`,
  )
  const shapes = Object.entries(to.shapes)
    .map(([shape, count]) => [shape, (count - (from.shapes[shape] ?? 0)) / requests] as const)
    .filter(([, perRequest]) => perRequest > 0.005)
    .sort((a, b) => b[1] - a[1])
  for (const [shape, perRequest] of shapes) console.log(`  ${perRequest.toFixed(2)}  ${shape}`)
}
