import { describe, expect, it } from 'vitest'
import { pairOrder, webhookPairs } from './webhook-overhead.js'

describe('the webhook cost protocol', () => {
  it('lets each mode go first in every other pair, so a steady drift skews both alike', () => {
    const orders = [0, 1, 2, 3].map((pair) => pairOrder(pair).join(' '))
    expect(orders).toEqual(['without with', 'with without', 'without with', 'with without'])
  })

  it('runs three pairs unless BENCH_WEBHOOK_PAIRS says otherwise, and refuses what is not a count', () => {
    expect(webhookPairs(undefined)).toBe(3)
    expect(webhookPairs('5')).toBe(5)
    for (const wrong of ['0', '-1', '2.5', 'many'])
      expect(() => webhookPairs(wrong)).toThrow(/BENCH_WEBHOOK_PAIRS/)
  })
})
