import { describe, expect, test } from 'vitest'
import type { UniqueClaim } from '../event-store.js'
import { decideClaim, judge, type Reservation } from './reservations.js'

const reservation = (overrides: Partial<Reservation> = {}): Reservation => ({
  scope: 'user.email',
  value: 'h(ada)',
  owner: 'user-a',
  stream: 'user-a',
  intent: 'event-1',
  replaces: null,
  ...overrides,
})

const op = (kind: UniqueClaim['op'], owner = 'user-a'): UniqueClaim => ({
  op: kind,
  scope: 'user.email',
  value: 'h(ada)',
  owner,
})

describe('judging a reservation by its owner stream', () => {
  test('held once its intent is in the owner stream, until a later append of the owner releases it', () => {
    const records = [
      { id: 'event-1', claims: [op('claim')] },
      { id: 'event-2', claims: [] },
    ]
    expect(judge(reservation(), records, 10, 1000)).toBe('held')
    expect(judge(reservation(), [...records, { id: 'event-3', claims: [op('release')] }], 10, 1000)).toBe(
      'released-in-log',
    )
    // Claimed again after the release: held.
    const again = [
      ...records,
      { id: 'event-3', claims: [op('release')] },
      { id: 'event-4', claims: [op('claim')] },
    ]
    expect(judge(reservation(), again, 10, 1000)).toBe('held')
    // A release by someone else, or of another value, does not count.
    const others = [
      ...records,
      { id: 'event-3', claims: [op('release', 'user-b'), { ...op('release'), value: 'h(bob)' }] },
    ]
    expect(judge(reservation(), others, 10, 1000)).toBe('held')
  })

  test('pending while its append may still land, orphaned after the grace period; an import holds', () => {
    expect(judge(reservation(), [], 999, 1000)).toBe('pending')
    expect(judge(reservation(), [{ id: 'other', claims: [] }], 1000, 1000)).toBe('orphaned')
    expect(judge(reservation({ intent: null, stream: null }), [], 10 ** 9, 1000)).toBe('held')
  })
})

describe('deciding a claim', () => {
  test('free: reserve; held by the same owner: keep; pending for the same owner: take over', () => {
    expect(decideClaim(op('claim'), null, [op('claim')])).toEqual({ kind: 'reserve', replaces: null })
    expect(decideClaim(op('claim'), { reservation: reservation(), verdict: 'held' }, [])).toEqual({
      kind: 'keep',
    })
    expect(decideClaim(op('claim'), { reservation: reservation(), verdict: 'pending' }, [])).toEqual({
      kind: 'reserve',
      replaces: reservation(),
    })
  })

  test("another owner's value conflicts, unless the same append releases that owner's claim (a transfer)", () => {
    const held = {
      reservation: reservation({ replaces: reservation({ intent: 'older' }) }),
      verdict: 'held' as const,
    }
    expect(decideClaim(op('claim', 'user-b'), held, [op('claim', 'user-b')])).toEqual({
      kind: 'conflict',
      holder: 'user-a',
    })
    // Only one level of history is kept.
    expect(
      decideClaim(op('claim', 'user-b'), held, [op('release', 'user-a'), op('claim', 'user-b')]),
    ).toEqual({
      kind: 'reserve',
      replaces: reservation(),
    })
  })
})
