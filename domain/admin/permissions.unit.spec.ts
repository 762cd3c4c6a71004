import { describe, expect, it } from 'vitest'
import {
  hasAdminPermission,
  holdsAdminRole,
  joinRoles,
  type RoleDefinitions,
  rolesExist,
  rolesOf,
} from './permissions.js'

describe('admin permissions', () => {
  it('given the admin role, when it asks for any admin action, then it is allowed', () => {
    for (const action of ['create', 'list', 'set-role', 'ban', 'impersonate', 'delete', 'set-password'])
      expect(hasAdminPermission('admin', { user: [action] }), action).toBe(true)
    expect(hasAdminPermission('admin', { session: ['list', 'revoke', 'delete'] })).toBe(true)
  })

  it('given the admin role, impersonating other admins is not among its permissions', () =>
    expect(hasAdminPermission('admin', { user: ['impersonate-admins'] })).toBe(false))

  it('given the user role (or none), nothing is allowed', () => {
    expect(hasAdminPermission('user', { user: ['list'] })).toBe(false)
    expect(hasAdminPermission(null, { session: ['list'] })).toBe(false)
  })

  it('every action asked for must be allowed, across resources', () => {
    const roles: RoleDefinitions = { support: { user: ['list', 'get'], session: ['list'] } }
    expect(hasAdminPermission('support', { user: ['list'], session: ['list'] }, roles)).toBe(true)
    expect(hasAdminPermission('support', { user: ['list', 'ban'] }, roles)).toBe(false)
    expect(hasAdminPermission('support', { organization: ['update'] }, roles)).toBe(false)
    expect(hasAdminPermission('support', {}, roles)).toBe(false)
  })

  it('one of several roles is enough', () => {
    expect(hasAdminPermission('user,admin', { user: ['ban'] })).toBe(true)
    expect(hasAdminPermission(' user , admin ', { user: ['ban'] })).toBe(true)
  })

  it('an unknown role grants nothing', () =>
    expect(hasAdminPermission('root', { user: ['list'] })).toBe(false))

  it('roles are read and written comma-separated', () => {
    expect(rolesOf('admin,user')).toEqual(['admin', 'user'])
    expect(rolesOf('')).toEqual(['user'])
    expect(joinRoles(['admin', 'user', 'admin'])).toBe('admin,user')
    expect(joinRoles('admin')).toBe('admin')
  })

  it('admins are those holding an admin role; unknown roles do not exist', () => {
    expect(holdsAdminRole('user,admin')).toBe(true)
    expect(holdsAdminRole('user')).toBe(false)
    expect(rolesExist(['admin', 'user'])).toBe(true)
    expect(rolesExist('superuser')).toBe(false)
  })
})
