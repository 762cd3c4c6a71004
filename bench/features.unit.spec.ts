import { describe, expect, it } from 'vitest'
import { cookieHeaderOf } from './cookies.js'
import { tesseraConfigFile } from './features-config.js'
import { nextFreeUser } from './two-factor.js'
import { deliveryStats } from './webhooks.js'

describe('the TOTP scenario picks users', () => {
  it('only whose last accepted step is behind the current one, round and round', () => {
    const users = [{ lastStep: 10 }, { lastStep: 9 }, { lastStep: 9 }]
    const next = nextFreeUser(users)
    expect(next(10)).toBe(users[1])
    expect(next(10)).toBe(users[2])
    expect(next(10)).toBe(users[1])
    expect(next(11)).toBe(users[2])
    expect(next(11)).toBe(users[0])
  })

  it('hands out the next one anyway when every user signed in this step (the server then says so)', () => {
    const users = [{ lastStep: 5 }, { lastStep: 5 }]
    const next = nextFreeUser(users)
    expect(users).toContain(next(5))
  })
})

describe('webhook delivery figures', () => {
  const window = { from: 1000, to: 2000 }
  it('count receipts inside the window, latencies of updates answered inside it, and undelivered ones', () => {
    const answered = new Map([
      ['early', 900],
      ['a', 1100],
      ['b', 1500],
      ['late', 1990],
      ['lost', 1200],
      ['after', 2100],
    ])
    const received = new Map([
      ['early', 1005],
      ['a', 1120],
      ['b', 1540],
      ['late', 2050],
      ['after', 2150],
    ])
    const stats = deliveryStats(answered, received, window, 1)
    // early, a, b were received inside the window.
    expect(stats.requests).toBe(3)
    expect(stats.perSecond).toBe(3)
    // a (20 ms), b (40), late (60); early and after were answered outside the window.
    expect(stats.maxMs).toBe(60)
    expect(stats.p50Ms).toBe(40)
    expect(stats.incorrect).toBe(1)
    expect(stats.firstFailure).toMatch(/1 updates .* never delivered/)
  })
})

describe('bench helpers', () => {
  it('send back the cookies an answer set, without their attributes or cleared ones', () => {
    expect(cookieHeaderOf(['a=1; Path=/; HttpOnly', 'b=; Max-Age=0', 'c=3'])).toBe('a=1; c=3')
    expect(cookieHeaderOf('a=1; Path=/')).toBe('a=1')
    expect(cookieHeaderOf(undefined)).toBe('')
  })

  it("write Tessera's feature options under BENCH_CONFIG's own sections", () => {
    expect(tesseraConfigFile(false, undefined)).toBeUndefined()
    expect(tesseraConfigFile(false, '{"jwt":{"enabled":false}}')).toBe('{"jwt":{"enabled":false}}')
    const merged = JSON.parse(
      tesseraConfigFile(true, '{"jwt":{"enabled":false},"webhooks":{"allowAddresses":[]}}') ?? '{}',
    )
    expect(merged.jwt).toEqual({ enabled: false })
    expect(merged.webhooks).toEqual({ allowAddresses: [] })
    expect(merged.scim.connections[0].credentials[0].token).toEqual(expect.any(String))
    expect(merged.oauthProvider).toEqual({ scopes: ['bench:read'] })
  })
})
