/// bench/cpu-profile.ts: a sample counts as one sampling interval, whatever the gap after it; only
/// the samples within the span count; self time goes to the sampled frame, total time to each frame
/// of its stack once.

import { describe, expect, it } from 'vitest'
import { moduleOf, summarize } from './cpu-profile.js'

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0 })
const ours = 'file:///work/dist/command-api/oauth-provider/token-grants.js'
const packaged = 'file:///work/node_modules/pg/lib/client.js'

// root → exchangeCode → query; root → (idle)
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 4] },
    { id: 2, callFrame: frame('exchangeCode', ours), children: [3] },
    { id: 3, callFrame: frame('query', packaged) },
    { id: 4, callFrame: frame('(idle)') },
  ],
  startTime: 1000,
  // At 2000, 3000, 4000 (then a 40,000 µs wait for a core), 44000, 45000.
  samples: [3, 2, 3, 4, 3],
  timeDeltas: [1000, 1000, 1000, 40000, 1000],
}

describe('cpu-profile', () => {
  it('counts each sample as the median interval, by function and by module', () => {
    const summary = summarize(profile)
    expect(summary.busyMs).toBe(4)
    expect(summary.idleMs).toBe(1)
    expect(Object.fromEntries(summary.selfByModule)).toEqual({
      pg: 3,
      'command-api/oauth-provider/token-grants.js': 1,
    })
    expect(summary.totalByFunction.get('exchangeCode command-api/oauth-provider/token-grants.js:1')).toBe(4)
    expect(summary.selfByFunction.get('query pg:1')).toBe(3)
  })

  it('keeps to the span it is given', () => {
    expect(summarize(profile, 2500, 4000).busyMs).toBe(2)
  })

  it('names node internals and native frames', () => {
    expect(moduleOf('node:internal/streams/writable', 'write')).toBe('node:internals')
    expect(moduleOf('', 'writev')).toBe('(native)')
    expect(moduleOf('', '(garbage collector)')).toBe('(garbage collector)')
  })
})
