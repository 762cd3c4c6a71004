import { describe, expect, it } from 'vitest'
import type { StoredClient } from '../../http/ports/oauth-client-lookup.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import { createOAuthProviderCache, trustedWhile } from './provider-cache.js'

const clientOf = (clientId: string, secretHash = 'hash-1'): StoredClient => ({
  clientId,
  userId: 'ada',
  organizationId: null,
  secretHash,
  settings: {} as StoredClient['settings'],
  source: 'admin',
  createdAt: new Date(0),
  updatedAt: new Date(0),
})

const personOf = (id: string, name = 'Ada'): KnownUser => ({ id, name }) as KnownUser

describe('the OpenID provider cache', () => {
  it('keeps a client read while nothing was evicted, and drops it when its secret, settings or life change', () => {
    const cache = createOAuthProviderCache()
    for (const type of ['oauth-client.secret-rotated', 'oauth-client.updated', 'oauth-client.deleted']) {
      cache.keepClient(clientOf('c1'), cache.generation())
      cache.keepClient(clientOf('c2'), cache.generation())
      expect(cache.client('c1')?.secretHash).toBe('hash-1')
      cache.evictFor([{ type, data: { clientId: 'c1', userId: 'ada' } }])
      expect(cache.client('c1')).toBeUndefined()
      expect(cache.client('c2')?.clientId).toBe('c2')
    }
  })

  it('does not keep a read that raced with an eviction (it may hold the secret just rotated)', () => {
    const cache = createOAuthProviderCache()
    const readAt = cache.generation()
    cache.evictFor([{ type: 'oauth-client.secret-rotated', data: { clientId: 'c1', secretHash: 'hash-2' } }])
    cache.keepClient(clientOf('c1', 'hash-1'), readAt)
    expect(cache.client('c1')).toBeUndefined()
  })

  it('forgets a live grant, client or person when it ends, and only that one', () => {
    const cache = createOAuthProviderCache()
    const ends = [
      ['oauth-grant.revoked', { grantId: 'g1', clientId: 'c1', userId: 'ada' }, 'grant:g1'],
      ['oauth-client.deleted', { clientId: 'c1', userId: 'ada' }, 'client:c1'],
      ['user.deleted', { userId: 'ada' }, 'user:ada'],
    ] as const
    for (const [type, data, origin] of ends) {
      const origins = ['grant:g1', 'grant:g2', 'client:c1', 'client:c2', 'user:ada', 'user:bob']
      cache.keepLive(origins, cache.generation())
      cache.evictFor([
        { type: 'oauth-grant.refreshed', data: { grantId: 'g1', clientId: 'c1', userId: 'ada' } },
      ])
      expect(origins.every((key) => cache.live(key))).toBe(true)
      cache.evictFor([{ type, data }])
      expect(origins.filter((key) => !cache.live(key))).toEqual([origin])
    }
  })

  it('does not keep origins found live by a read that raced with a revocation', () => {
    const cache = createOAuthProviderCache()
    const readAt = cache.generation()
    cache.evictFor([{ type: 'oauth-grant.revoked', data: { grantId: 'g1', clientId: 'c1', userId: 'ada' } }])
    cache.keepLive(['grant:g1', 'client:c1'], readAt)
    expect(cache.live('grant:g1')).toBe(false)
  })

  it('drops everything when an organization is deleted (its clients go with it)', () => {
    const cache = createOAuthProviderCache()
    cache.keepClient(clientOf('c1'), cache.generation())
    cache.keepLive(['client:c1'], cache.generation())
    cache.evictFor([{ type: 'organization.deleted', data: { organizationId: 'o1' } }])
    expect(cache.client('c1')).toBeUndefined()
    expect(cache.live('client:c1')).toBe(false)
  })

  it('answers nothing while it is not trusted (its projector is not running)', () => {
    const cache = createOAuthProviderCache()
    let running = true
    const trusted = trustedWhile(cache, () => running)
    trusted.keepClient(clientOf('c1'), trusted.generation())
    trusted.keepLive(['grant:g1'], trusted.generation())
    expect(trusted.client('c1')?.clientId).toBe('c1')
    expect(trusted.live('grant:g1')).toBe(true)
    running = false
    expect(trusted.client('c1')).toBeUndefined()
    expect(trusted.live('grant:g1')).toBe(false)
  })

  it("drops a person's row on each of their events (name, address, verified flag, picture, ban, deletion)", () => {
    const cache = createOAuthProviderCache()
    const changes = [
      'user.profile-updated',
      'user.email-changed',
      'user.email-verified',
      'user.username-changed',
      'user.banned',
      'user.unbanned',
      'user.deleted',
    ]
    for (const type of changes) {
      cache.keepUser(personOf('ada'), cache.generation())
      cache.keepUser(personOf('bob'), cache.generation())
      // A grant's events leave the person as they are: the token endpoint reads them after its own.
      cache.evictFor([
        { type: 'oauth-grant.refreshed', data: { grantId: 'g1', clientId: 'c1', userId: 'ada' } },
      ])
      expect(cache.user('ada')?.name).toBe('Ada')
      cache.evictFor([{ type, data: { userId: 'ada' } }])
      expect(cache.user('ada')).toBeUndefined()
      expect(cache.user('bob')?.id).toBe('bob')
    }
  })

  it("does not keep a person's row read while one of their changes was evicted, nor when untrusted", () => {
    const cache = createOAuthProviderCache()
    const readAt = cache.generation()
    cache.evictFor([{ type: 'user.profile-updated', data: { userId: 'ada', name: 'Ada L.' } }])
    cache.keepUser(personOf('ada'), readAt)
    expect(cache.user('ada')).toBeUndefined()
    let running = true
    const trusted = trustedWhile(cache, () => running)
    trusted.keepUser(personOf('ada'), trusted.generation())
    expect(trusted.user('ada')?.name).toBe('Ada')
    running = false
    expect(trusted.user('ada')).toBeUndefined()
  })
})
