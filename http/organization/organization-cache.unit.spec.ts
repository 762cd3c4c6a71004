/// The rules that keep get-full-organization's kept answers exact: which events evict what, a read
/// that raced an eviction is not kept, and nothing is served unless this process applies events
/// and its checkpoint never went back (a replay).

import { describe, expect, it } from 'vitest'
import type { GlobalPosition, RecordedEvent } from '../../infra/event-store/event-store.js'
import type { ProjectorStatus } from '../../projections/runner/projector-types.js'
import { type CacheProjector, subscribedOrganizationCache } from './organization-cache.js'

type Applied = (events: readonly RecordedEvent[]) => void

const projectorAt = () => {
  const state: { position: GlobalPosition; status: Pick<ProjectorStatus, 'mode' | 'state'> } = {
    position: { tx: 10n, seq: 0n },
    status: { mode: 'apply', state: 'running' },
  }
  const listeners = new Set<Applied>()
  const projector: CacheProjector = {
    position: () => state.position,
    status: () => ({ ...state.status }) as ProjectorStatus,
    onApplied: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const apply = (...events: { type: string; data: object }[]) => {
    for (const listener of listeners) listener(events as unknown as RecordedEvent[])
  }
  return { projector, state, apply, listeners }
}

const entry = (name: string, userIds: string[] | null = ['u1']) => ({
  answer: name,
  memberUserIds: userIds && new Set(userIds),
  size: userIds?.length ?? 100,
})

describe('the kept get-full-organization answers', () => {
  it("evict an organization on its own events, everything on a user's, nothing on a session's", () => {
    const { projector, apply } = projectorAt()
    const { cache } = subscribedOrganizationCache<string>(projector)
    const fill = () => {
      cache.set('o1', 100, entry('one'), cache.generation())
      cache.set('o2', 100, entry('two'), cache.generation())
    }
    fill()
    apply({ type: 'session.started', data: { userId: 'u1' } }, { type: 'api-key.used', data: {} })
    expect([cache.get('o1', 100)?.answer, cache.get('o2', 100)?.answer]).toEqual(['one', 'two'])
    apply({ type: 'organization.member-role-updated', data: { organizationId: 'o1' } })
    expect([cache.get('o1', 100), cache.get('o2', 100)?.answer]).toEqual([undefined, 'two'])
    fill()
    // A password reset or a ban changes nothing a member's entry shows.
    apply(
      { type: 'user.password-reset', data: { userId: 'u9' } },
      { type: 'user.banned', data: { userId: 'u9' } },
    )
    expect([cache.get('o1', 100)?.answer, cache.get('o2', 100)?.answer]).toEqual(['one', 'two'])
    apply({ type: 'user.profile-updated', data: { userId: 'u9' } })
    expect([cache.get('o1', 100), cache.get('o2', 100)]).toEqual([undefined, undefined])
    fill()
    apply({ type: 'user.email-changed', data: { userId: 'u9' } })
    expect([cache.get('o1', 100), cache.get('o2', 100)]).toEqual([undefined, undefined])
  })

  it("keyed by user, clear everything on any organization's event", () => {
    const { projector, apply } = projectorAt()
    const { cache } = subscribedOrganizationCache<string>(projector, 'byUser')
    cache.set('u1', 'list', entry('lists'), cache.generation())
    apply({ type: 'session.refreshed', data: {} })
    expect(cache.get('u1', 'list')?.answer).toBe('lists')
    apply({ type: 'organization.updated', data: { organizationId: 'o1' } })
    expect(cache.get('u1', 'list')).toBeUndefined()
  })

  it('does not keep a read that raced an eviction', () => {
    const { projector, apply } = projectorAt()
    const { cache } = subscribedOrganizationCache<string>(projector)
    const before = cache.generation()
    apply({ type: 'organization.member-added', data: { organizationId: 'o1' } })
    cache.set('o1', 100, entry('stale'), before)
    expect(cache.get('o1', 100)).toBeUndefined()
  })

  it('serves nothing while the projector is not running or only follows, and forgets all after a replay', () => {
    const { projector, state } = projectorAt()
    const { cache } = subscribedOrganizationCache<string>(projector)
    cache.set('o1', 100, entry('one'), cache.generation())
    state.status = { mode: 'apply', state: 'halted' }
    expect(cache.get('o1', 100)).toBeUndefined()
    state.status = { mode: 'follow', state: 'running' }
    expect(cache.get('o1', 100)).toBeUndefined()
    state.status = { mode: 'apply', state: 'running' }
    expect(cache.get('o1', 100)?.answer).toBe('one')
    state.position = { tx: 3n, seq: 0n }
    expect(cache.get('o1', 100)).toBeUndefined()
  })

  it('holds a bounded number of members, dropping the oldest organizations first', () => {
    const { projector } = projectorAt()
    const { cache } = subscribedOrganizationCache<string>(projector)
    const many = (n: number) => Array.from({ length: n }, (_, i) => `u${i}`)
    cache.set('o1', 1000, entry('one', many(1000)), cache.generation())
    for (let i = 2; i <= 20; i++) cache.set(`o${i}`, 1000, entry(`${i}`, many(1000)), cache.generation())
    expect(cache.get('o1', 1000)?.answer).toBe('one')
    cache.set('o21', 1000, entry('21', many(1000)), cache.generation())
    expect(cache.get('o1', 1000)).toBeUndefined()
    expect(cache.get('o21', 1000)?.answer).toBe('21')
    expect(cache.get('o2', 1000)?.answer).toBe('2')
  })

  it('stops hearing events once unsubscribed', () => {
    const { projector, listeners } = projectorAt()
    const { unsubscribe } = subscribedOrganizationCache<string>(projector)
    expect(listeners.size).toBe(1)
    unsubscribe()
    expect(listeners.size).toBe(0)
  })
})
