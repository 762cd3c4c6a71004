import { describe, expect, it } from 'vitest'
import { type CachedApiKey, createApiKeyCache } from './api-key-cache.js'

const keyOf = (id: string, owner: { userId: string } | { organizationId: string }): CachedApiKey => ({
  id,
  userId: 'userId' in owner ? owner.userId : null,
  organizationId: 'organizationId' in owner ? owner.organizationId : null,
  enabled: true,
  expiresAt: null,
  createdAt: new Date(0),
  permissions: null,
  metered: false,
  refillAmount: null,
  refillInterval: null,
  rateLimited: null,
  json: {} as CachedApiKey['json'],
})

describe('the API-key cache', () => {
  it('keeps a key read while nothing was evicted, and drops it on any event about it', () => {
    const cache = createApiKeyCache()
    cache.set('h1', keyOf('k1', { userId: 'ada' }), cache.generation())
    expect(cache.get('h1')?.id).toBe('k1')
    cache.evictFor([{ type: 'api-key.disabled', data: { keyId: 'k1', userId: 'ada' } }])
    expect(cache.get('h1')).toBeUndefined()
  })

  it('does not keep a read that raced with an eviction (it may hold a key just disabled)', () => {
    const cache = createApiKeyCache()
    const readAt = cache.generation()
    cache.evictFor([{ type: 'api-key.deleted', data: { keyId: 'k9', userId: 'bob' } }])
    cache.set('h1', keyOf('k1', { userId: 'ada' }), readAt)
    expect(cache.get('h1')).toBeUndefined()
  })

  it('drops every key of a deleted user or organization, and only theirs', () => {
    const cache = createApiKeyCache()
    const at = cache.generation()
    cache.set('h1', keyOf('k1', { userId: 'ada' }), at)
    cache.set('h2', keyOf('k2', { userId: 'ada' }), at)
    cache.set('h3', keyOf('k3', { organizationId: 'ada' }), at)
    cache.set('h4', keyOf('k4', { organizationId: 'acme' }), at)
    cache.evictFor([{ type: 'user.deleted', data: { userId: 'ada' } }])
    expect(['h1', 'h2', 'h3', 'h4'].map((hash) => cache.get(hash)?.id)).toEqual([
      undefined,
      undefined,
      'k3',
      'k4',
    ])
    cache.evictFor([{ type: 'organization.deleted', data: { organizationId: 'acme' } }])
    expect(cache.get('h4')).toBeUndefined()
    expect(cache.get('h3')?.id).toBe('k3')
  })

  it('ignores events that change no key', () => {
    const cache = createApiKeyCache()
    cache.set('h1', keyOf('k1', { userId: 'ada' }), cache.generation())
    const before = cache.generation()
    cache.evictFor([{ type: 'session.started', data: { userId: 'ada' } }])
    expect(cache.generation()).toBe(before)
    expect(cache.get('h1')?.id).toBe('k1')
  })
})
