import { describe, expect, it } from 'vitest'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import { createSessionCache } from './session-cache.js'
import type { SessionList } from './session-list-cache.js'

const metadata = (userId: string | null): EventMetadata => ({
  actor: userId ? { type: 'user', userId } : { type: 'system' },
  ip: null,
  userAgent: null,
  correlationId: 'c',
  causationId: null,
  at: '2030-01-01T00:00:00.000Z',
})

const listOf = (...ids: string[]): SessionList => ({
  lastUsesReadAt: 0,
  sessions: ids.map((id) => ({
    json: {
      id,
      userId: 'ada',
      token: id,
      expiresAt: '2030-02-01T00:00:00.000Z',
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
      ipAddress: null,
      userAgent: null,
      country: null,
      city: null,
      activeOrganizationId: null,
      activeTeamId: null,
      impersonatedBy: null,
    },
    expiresAtMs: Date.parse('2030-02-01T00:00:00.000Z'),
    changedMs: Date.parse('2030-01-01T00:00:00.000Z'),
    lastActiveMs: Date.parse('2030-01-01T00:00:00.000Z'),
  })),
})

const heldAfter = (event: { type: string; data: object; actor?: string | null }) => {
  const cache = createSessionCache()
  cache.keepList('ada', listOf('s1', 's2'), cache.generation())
  cache.keepList('bob', listOf('s3'), cache.generation())
  cache.evictFor([{ type: event.type, data: event.data, metadata: metadata(event.actor ?? null) }])
  return ['ada', 'bob'].filter((user) => cache.listOf(user) !== undefined)
}

describe('the session cache: lists of sessions', () => {
  it("drops a user's list on a new session, a revocation or an expiry of theirs, and keeps others'", () => {
    expect(heldAfter({ type: 'session.started', data: { sessionId: 's9', userId: 'ada' } })).toEqual(['bob'])
    expect(
      heldAfter({ type: 'session.revoked', data: { sessionId: 's2', userId: 'ada', reason: 'sign-out' } }),
    ).toEqual(['bob'])
    expect(heldAfter({ type: 'session.expired', data: { sessionId: 's3', userId: 'bob' } })).toEqual(['ada'])
  })

  it('drops the list holding a session whose event names no user (a slide), whoever acted', () => {
    const slide = {
      type: 'session.refreshed',
      data: { sessionId: 's1', expiresAt: '2030-03-01T00:00:00.000Z' },
    }
    expect(heldAfter({ ...slide, actor: null })).toEqual(['bob'])
    expect(heldAfter({ ...slide, actor: 'bob' })).toEqual([])
  })

  it("drops a user's list on the user's ban, deletion or a membership's end; keeps it for events that change no session", () => {
    expect(heldAfter({ type: 'user.banned', data: { userId: 'ada' } })).toEqual(['bob'])
    expect(heldAfter({ type: 'user.deleted', data: { userId: 'bob' } })).toEqual(['ada'])
    const removed = { organizationId: 'o', memberId: 'm', userId: 'ada', reason: 'left' }
    expect(heldAfter({ type: 'organization.member-removed', data: removed })).toEqual(['bob'])
    expect(heldAfter({ type: 'signing-key.created', data: { keyId: 'k' } })).toEqual(['ada', 'bob'])
  })

  it('does not keep a list read before an eviction (it may miss a new session or show a revoked one)', () => {
    const cache = createSessionCache()
    const readAt = cache.generation()
    cache.evictFor([
      { type: 'session.started', data: { sessionId: 's9', userId: 'eve' }, metadata: metadata('eve') },
    ])
    cache.keepList('ada', listOf('s1'), readAt)
    expect(cache.listOf('ada')).toBeUndefined()
    cache.keepList('ada', listOf('s1'), cache.generation())
    expect(cache.listOf('ada')?.sessions.map((s) => s.json.id)).toEqual(['s1'])
  })

  it('holds at most 20,000 sessions across lists, dropping the lists kept longest ago', () => {
    const cache = createSessionCache()
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`)
    cache.keepList('ada', listOf(...ids('a', 12_000)), cache.generation())
    cache.keepList('bob', listOf(...ids('b', 5_000)), cache.generation())
    cache.keepList('cy', listOf(...ids('c', 5_000)), cache.generation())
    expect(['ada', 'bob', 'cy'].filter((user) => cache.listOf(user))).toEqual(['bob', 'cy'])
    cache.keepList('eve', listOf(...ids('e', 20_001)), cache.generation())
    expect(cache.listOf('eve')).toBeUndefined()
    // A dropped list's sessions no longer point to it: its events evict nothing else.
    cache.evictFor([{ type: 'session.refreshed', data: { sessionId: 'a1' }, metadata: metadata(null) }])
    expect(['bob', 'cy'].filter((user) => cache.listOf(user))).toEqual(['bob', 'cy'])
  })
})
