import { describe, expect, it } from 'vitest'
import { declaredActivityTypes } from '../../test/declared-activity-types.js'
import type { ActivityItem } from './activity.api.js'
import { describeActivity } from './describe-activity.js'

const item = (type: string, details: Record<string, unknown> = {}): ActivityItem => ({
  id: 'e1',
  type,
  at: '2026-03-05T10:00:00.000Z',
  ip: null,
  userAgent: null,
  details,
})

describe('activity sentences', () => {
  it('names the organization and the key where the entry holds them, and how a membership ended', () => {
    expect(describeActivity(item('organization.created', { name: 'Analytical Engines' }))).toBe(
      'You created the organization Analytical Engines',
    )
    expect(describeActivity(item('organization.member-added', { role: 'admin' }))).toBe(
      'You joined an organization as admin',
    )
    expect(describeActivity(item('organization.member-removed', { reason: 'left' }))).toBe(
      'You left an organization',
    )
    expect(describeActivity(item('organization.member-removed', { reason: 'removed' }))).toBe(
      'You were removed from an organization',
    )
    expect(describeActivity(item('api-key.created', { name: 'CI' }))).toBe('You created the API key “CI”')
    expect(describeActivity(item('api-key.used', { count: 3 }))).toBe('An API key was used 3 times')
  })

  it('says what an operator changed: the new username and role, and whether a suspension ended by itself', () => {
    expect(describeActivity(item('user.username-changed', { username: 'ada', displayUsername: 'Ada' }))).toBe(
      'You changed your username to Ada',
    )
    expect(describeActivity(item('user.role-set', { role: 'admin', previousRole: null }))).toBe(
      'Your role was changed to admin',
    )
    expect(describeActivity(item('user.unbanned', { expired: true }))).toBe(
      'The suspension of your account ended',
    )
    expect(describeActivity(item('user.unbanned', { expired: false }))).toBe(
      'The suspension of your account was lifted',
    )
  })

  it('words every recorded kind of event for a person, never with the log name', () => {
    const types = declaredActivityTypes()
    expect(types).toEqual(expect.arrayContaining(['user.registered', 'organization.created', 'api-key.used']))
    for (const type of types) expect(describeActivity(item(type)), type).not.toContain(type)
  })

  it('tells a sign-out by a password reset from one the person did', () => {
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
    const byReset = describeActivity(
      item('session.revoked', { reason: 'password-reset', userAgent: firefox }),
    )
    expect(byReset).toMatch(/^The password reset signed out /)
    expect(byReset).not.toMatch(/^You/)
    expect(describeActivity(item('session.revoked', { reason: 'revoked', userAgent: firefox }))).toMatch(
      /^You signed out /,
    )
  })

  it('says where the signed-out device was, when the server knows', () => {
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
    const lyon = { country: 'FR', city: 'Lyon' }
    expect(
      describeActivity(item('session.revoked', { reason: 'password-reset', userAgent: iphone, place: lyon })),
    ).toBe('The password reset signed out Safari on iOS in Lyon, France')
    // No device recorded, but a place: still said.
    expect(
      describeActivity(item('session.revoked', { reason: 'revoked', place: { country: 'JP', city: null } })),
    ).toBe('You signed out a device in Japan')
    // Neither: the plain sentence, nothing made up.
    expect(
      describeActivity(item('session.revoked', { reason: 'revoked', place: { country: null, city: null } })),
    ).toBe('You signed out another device')
  })

  it('says where an email address moved to', () => {
    expect(describeActivity(item('user.email-changed', { previousEmail: 'a@x.org', email: 'b@x.org' }))).toBe(
      'You changed your email address to b@x.org',
    )
  })
})
