import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { GlobalPosition, RecordedEvent } from '../event-store.js'
import { type CommittedPart, createAppendedPlaintext, type SealedAppended } from './appended-plaintext.js'

const KEY = Buffer.alloc(32, 7)
const at = (tx: number, seq: number): GlobalPosition => ({ tx: BigInt(tx), seq: BigInt(seq) })

const sealed = (subject: string): SealedAppended => ({
  id: randomUUID(),
  type: 'session.started',
  subject,
  key: KEY,
  plain: new Map([['metadata.ip', '"192.0.2.1"']]),
})

/** Two events appended to `stream` at versions 4 and 5, the last at (10, 21). */
const part = (stream = 'session-s1', subject = 'u1'): CommittedPart => ({
  stream,
  events: [sealed(subject), sealed(subject)],
  nextVersion: 5,
  position: at(10, 21),
})

const recorded = (held: SealedAppended | null, changes: Partial<RecordedEvent> = {}): RecordedEvent => ({
  id: held?.id ?? randomUUID(),
  type: held?.type ?? 'session.started',
  data: {},
  metadata: {
    actor: { type: 'system' },
    ip: 'sealed',
    userAgent: null,
    correlationId: 'c',
    causationId: null,
    at: '',
  },
  streamId: 'session-s1',
  streamVersion: 5,
  position: at(10, 21),
  recordedAt: new Date(0),
  ...changes,
})

describe('the plaintext held of appended events', () => {
  it('is given only for the event at its place in the log, sealed under the same key', () => {
    const held = createAppendedPlaintext()
    const appended = part()
    held.hold([appended])
    const [first, last] = appended.events
    expect(held.plainOf(recorded(last ?? null), KEY)?.get('metadata.ip')).toBe('"192.0.2.1"')
    expect(
      held.plainOf(recorded(first ?? null, { streamVersion: 4, position: at(10, 20) }), KEY),
    ).toBeDefined()

    expect(held.plainOf(recorded(last ?? null, { position: at(10, 22) }), KEY)).toBeUndefined()
    expect(
      held.plainOf(recorded(first ?? null, { streamVersion: 4, position: at(10, 21) }), KEY),
    ).toBeUndefined()
    expect(held.plainOf(recorded(last ?? null, { streamVersion: 4 }), KEY)).toBeUndefined()
    expect(held.plainOf(recorded(last ?? null, { streamId: 'session-s2' }), KEY)).toBeUndefined()
    expect(held.plainOf(recorded(last ?? null, { type: 'session.refreshed' }), KEY)).toBeUndefined()
    expect(held.plainOf(recorded(last ?? null), Buffer.alloc(32, 8))).toBeUndefined()
    expect(held.plainOf(recorded(null), KEY)).toBeUndefined()
  })

  it('holds at most maxEvents, dropping the oldest', () => {
    const held = createAppendedPlaintext({ maxEvents: 3 })
    const older = part('a')
    const newer = part('b')
    held.hold([older])
    held.hold([newer])
    expect(held.size()).toBe(3)
    expect(held.plainOf(recorded(older.events[1] ?? null, { streamId: 'a' }), KEY)).toBeDefined()
    expect(
      held.plainOf(
        recorded(older.events[0] ?? null, { streamId: 'a', streamVersion: 4, position: at(10, 1) }),
        KEY,
      ),
    ).toBeUndefined()
  })

  it('holds nothing longer than maxAgeMs', () => {
    let now = 1_000
    const held = createAppendedPlaintext({ maxAgeMs: 100, now: () => now })
    const appended = part()
    held.hold([appended])
    now += 99
    expect(held.plainOf(recorded(appended.events[1] ?? null), KEY)).toBeDefined()
    now += 1
    expect(held.plainOf(recorded(appended.events[1] ?? null), KEY)).toBeUndefined()
    held.hold([part('other')])
    expect(held.size()).toBe(2)
  })

  it('forgets every event of an erased subject, and only theirs', () => {
    const held = createAppendedPlaintext()
    held.hold([part('a', 'u1'), part('b', 'u2')])
    held.forget('u1')
    expect([held.size('u1'), held.size('u2')]).toEqual([0, 2])
  })
})
