import { describe, expect, it } from 'vitest'
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

// Every type the server's activity read model records (projections/activity/activity-entry.ts).
const RECORDED_TYPES = [
  'user.registered',
  'user.verification-email-requested',
  'user.email-verified',
  'user.password-reset-requested',
  'user.password-reset',
  'user.password-changed',
  'user.password-set',
  'user.password-removed',
  'user.profile-updated',
  'user.email-change-requested',
  'user.email-change-confirmed',
  'user.email-changed',
  'user.deletion-requested',
  'user.signed-out',
  'session.started',
  'session.revoked',
  'session.expired',
]

describe('activity sentences', () => {
  it('words every recorded kind of event for a person, never with the log name', () => {
    for (const type of RECORDED_TYPES) expect(describeActivity(item(type)), type).not.toContain(type)
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
