/// `node dist/bench/cpu-profile.js <file.cpuprofile> [fromUs toUs] [top]`: where a V8 CPU profile's
/// time went, by function (self and total) and by module, within a span of the profile's clock (as
/// bench/oauth-costs.ts and bench/webhook-cost.ts print them) or over the whole profile. A module is
/// a package under node_modules, a file of our own, or node's internals; V8's own entries
/// (`(garbage collector)`, `(program)`, `(idle)`) stand as they are.

import { readFileSync } from 'node:fs'

type CallFrame = { functionName: string; url: string; lineNumber: number }
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] }
type Profile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] }

export type ProfileSummary = {
  /** Sampled milliseconds in the span (samples × the sampling interval), idle left out. */
  busyMs: number
  idleMs: number
  selfByFunction: Map<string, number>
  totalByFunction: Map<string, number>
  selfByModule: Map<string, number>
}

/** The module a frame's script belongs to: `pkg` for node_modules/pkg, the path from the repo root for ours. */
export const moduleOf = (url: string, functionName: string): string => {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)'
  if (url.startsWith('node:')) return 'node:internals'
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (packaged?.[1]) return packaged[1]
  const ours = /\/dist\/(.+)$/.exec(url)
  return ours?.[1] ?? url.replace(/^file:\/\//, '')
}

const functionOf = ({ functionName, url, lineNumber }: CallFrame): string =>
  url ? `${functionName || '(anonymous)'} ${moduleOf(url, functionName)}:${lineNumber + 1}` : functionName

const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms)

const medianOf = (values: readonly number[]): number =>
  values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

export const summarize = (profile: Profile, fromUs = -Infinity, toUs = Infinity): ProfileSummary => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parentOf = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
  const summary: ProfileSummary = {
    busyMs: 0,
    idleMs: 0,
    selfByFunction: new Map(),
    totalByFunction: new Map(),
    selfByModule: new Map(),
  }
  // Every sample counts as one sampling interval (the median gap between samples). Weighing a sample
  // by the gap to the next one instead would count the time the thread waited for a core on a
  // loaded machine (gaps of 40 ms where 1 ms was asked) to whatever it was doing before it waited:
  // counted so, the samples of a c16 run summed to twice the CPU the main thread used (/proc).
  const ms = medianOf(profile.timeDeltas) / 1000
  let at = profile.startTime
  for (let i = 0; i < profile.samples.length; i += 1) {
    at += profile.timeDeltas[i] ?? 0
    const node = byId.get(profile.samples[i] ?? -1)
    if (!node || at < fromUs || at > toUs) continue
    const { callFrame } = node
    if (callFrame.functionName === '(idle)') {
      summary.idleMs += ms
      continue
    }
    summary.busyMs += ms
    add(summary.selfByFunction, functionOf(callFrame), ms)
    add(summary.selfByModule, moduleOf(callFrame.url, callFrame.functionName), ms)
    // Each function once per sample, however deep its recursion.
    const seen = new Set<string>()
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const frame = byId.get(id)?.callFrame
      if (!frame || frame.functionName === '(root)') continue
      const key = functionOf(frame)
      if (!seen.has(key)) add(summary.totalByFunction, key, ms)
      seen.add(key)
    }
  }
  return summary
}

const table = (title: string, map: Map<string, number>, busyMs: number, top: number) => {
  console.log(title)
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${ms.toFixed(1).padStart(8)} ms ${((100 * ms) / busyMs).toFixed(1).padStart(5)}%  ${key}`)
}

const main = () => {
  const [file, from, to, top = '25'] = process.argv.slice(2)
  if (!file) throw new Error('usage: cpu-profile.js <file.cpuprofile> [fromUs toUs] [top]')
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
  const summary = summarize(profile, from ? Number(from) : -Infinity, to ? Number(to) : Infinity)
  console.log(`busy ${summary.busyMs.toFixed(1)} ms, idle ${summary.idleMs.toFixed(1)} ms`)
  table('self time by module', summary.selfByModule, summary.busyMs, Number(top))
  table('self time by function', summary.selfByFunction, summary.busyMs, Number(top))
  table('total time by function', summary.totalByFunction, summary.busyMs, Number(top))
}

if (import.meta.url === `file://${process.argv[1]}`) main()
