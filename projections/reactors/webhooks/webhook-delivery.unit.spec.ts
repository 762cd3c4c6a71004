import { describe, expect, it } from 'vitest'
import { toPublicEvent } from '../../../domain/public-events/catalogue.js'
import {
  addressPolicy,
  isAllowedAddress,
  literalAddressAllowed,
} from '../../../infra/webhooks/address-guard.js'
import { DEFAULT_RETRY_SCHEDULE, nextAttempt } from './retry-schedule.js'

const SECOND = 1000
const HOUR = 3600 * SECOND

describe('the retry schedule', () => {
  const since = new Date('2026-11-28T00:00:00Z')
  const at = (ms: number) => new Date(since.getTime() + ms)
  const waitAfter = (failures: number, elapsedMs: number, random = 0.5) => {
    const next = nextAttempt(DEFAULT_RETRY_SCHEDULE, failures, since, at(elapsedMs), random)
    return next === 'give-up' ? next : next.getTime() - at(elapsedMs).getTime()
  }

  it('waits about 1 s, 5 s, 30 s, 2 min, 10 min, 1 h, then 6 h', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((failures) => waitAfter(failures, 0))).toEqual([
      1 * SECOND,
      5 * SECOND,
      30 * SECOND,
      120 * SECOND,
      600 * SECOND,
      HOUR,
      6 * HOUR,
      6 * HOUR,
    ])
  })

  it('jitters each wait by up to a fifth either way', () => {
    expect(waitAfter(2, 0, 0)).toBe(4 * SECOND)
    expect(waitAfter(2, 0, 0.999_999)).toBeCloseTo(6 * SECOND, -1)
  })

  it('gives up 3 days after the first failure, and never schedules past that', () => {
    expect(waitAfter(20, 72 * HOUR)).toBe('give-up')
    expect(waitAfter(20, 71 * HOUR)).toBe(HOUR)
  })
})

describe('the address guard', () => {
  const strict = addressPolicy([])
  it('refuses loopback, private, link-local (metadata), unique-local and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.5',
      '172.16.3.4',
      '192.168.0.1',
      '169.254.169.254',
      '::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
      '100.64.0.1',
    ])
      expect(isAllowedAddress(strict, address), address).toBe(false)
    expect(isAllowedAddress(strict, '93.184.215.14')).toBe(true)
  })

  it('allows the ranges an operator lists, and only those', () => {
    const loopback = addressPolicy(['127.0.0.0/8'])
    expect(isAllowedAddress(loopback, '127.0.0.1')).toBe(true)
    expect(isAllowedAddress(loopback, '10.0.0.1')).toBe(false)
    expect(literalAddressAllowed(loopback, 'http://localhost:3000/x')).toBe(true)
    expect(literalAddressAllowed(strict, 'http://localhost:3000/x')).toBe(false)
    expect(literalAddressAllowed(strict, 'http://[::1]/x')).toBe(false)
    expect(literalAddressAllowed(strict, 'https://hooks.example.com/x')).toBe(true)
  })
})

describe('the public catalogue', () => {
  const registered = (erased: boolean) => ({
    id: 'e1',
    type: 'user.registered',
    data: {
      userId: 'u1',
      email: erased ? null : 'a@example.com',
      name: erased ? null : 'A',
      image: null,
      emailVerified: false,
      credential: erased ? null : { accountId: 'a', passwordHash: 'salt:hash' },
    },
    metadata: {
      actor: { type: 'anonymous' as const },
      ip: null,
      userAgent: null,
      correlationId: 'c',
      causationId: null,
      at: '2026-11-28T00:00:00.000Z',
      ...(erased ? { erased: true } : {}),
    },
  })

  it('exposes the public fields under the public type, never the internal ones', () => {
    expect(toPublicEvent(registered(false))).toEqual({
      id: 'e1',
      type: 'user.created',
      occurredAt: '2026-11-28T00:00:00.000Z',
      subject: 'u1',
      data: { userId: 'u1', email: 'a@example.com', name: 'A', emailVerified: false },
    })
  })

  it('after erasure, ids and types only', () => {
    expect(toPublicEvent(registered(true))?.data).toEqual({ userId: 'u1', emailVerified: false })
  })

  it('keeps internal events internal', () => {
    expect(toPublicEvent({ ...registered(false), type: 'user.password-changed' })).toBeNull()
  })
})
