import { describe, expect, it } from 'vitest'
import { hasPermission, mayManageApiKeys, unknownResources } from './permissions.js'

describe('organization permissions', () => {
  it('owner holds everything, admin all but deleting the organization, member nothing', () => {
    expect(hasPermission('owner', { organization: ['delete'], member: ['delete'] })).toBe(true)
    expect(
      hasPermission('admin', { organization: ['update'], invitation: ['cancel'], team: ['delete'] }),
    ).toBe(true)
    expect(hasPermission('admin', { organization: ['delete'] })).toBe(false)
    expect(hasPermission('member', { invitation: ['create'] })).toBe(false)
    expect(hasPermission('member', { member: ['update'] })).toBe(false)
  })
  it('several roles grant the union of their statements', () => {
    const custom = { billing: { organization: ['delete'] }, inviter: { invitation: ['create'] } }
    expect(
      hasPermission('billing,inviter', { organization: ['delete'], invitation: ['create'] }, custom),
    ).toBe(true)
    expect(hasPermission('billing', { organization: ['delete'], invitation: ['create'] }, custom)).toBe(false)
    expect(hasPermission('member, admin', { member: ['delete'] })).toBe(true)
  })
  it('asking for nothing is denied', () => {
    expect(hasPermission('owner', {})).toBe(false)
    expect(hasPermission('owner', undefined)).toBe(false)
    expect(hasPermission('owner', { member: [] })).toBe(false)
  })
  it('unknown roles and actions grant nothing', () => {
    expect(hasPermission('wizard', { member: ['update'] })).toBe(false)
    expect(hasPermission('owner', { member: ['fly'] })).toBe(false)
  })
  it("lets the creator role manage the organization's API keys, others only as a custom role grants", () => {
    for (const action of ['create', 'read', 'update', 'delete'] as const) {
      expect(mayManageApiKeys('owner', action, 'owner')).toBe(true)
      expect(mayManageApiKeys('admin', action, 'owner')).toBe(false)
      expect(mayManageApiKeys('member', action, 'owner')).toBe(false)
    }
    // As better-auth: the built-in owner role itself holds no apiKey statement; being the creator does.
    expect(hasPermission('owner', { apiKey: ['read'] })).toBe(false)
    expect(mayManageApiKeys('admin', 'read', 'admin')).toBe(true)
    const custom = { keyReader: { apiKey: ['read'] } }
    expect(mayManageApiKeys('member, keyReader', 'read', 'owner', custom)).toBe(true)
    expect(mayManageApiKeys('keyReader', 'delete', 'owner', custom)).toBe(false)
    expect(unknownResources({ apiKey: ['read'] })).toEqual([])
  })
})
