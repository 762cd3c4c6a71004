import { describe, expect, it } from 'vitest'
import { declaredActivityTypes } from '../../test/declared-activity-types.js'
import { describeForOperator } from './describe-for-operator.js'

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'

describe('history in an operator’s words', () => {
  it('words every kind of entry the history can show, never with its log name', () => {
    const types = declaredActivityTypes()
    // The reading of the declarations found them all, not a handful.
    expect(types).toEqual(expect.arrayContaining(['user.banned', 'session.started', 'api-key.used']))
    expect(types.length).toBeGreaterThan(35)
    for (const type of types) {
      const sentence = describeForOperator({ type, details: {} })
      expect(sentence, type).not.toContain(type)
      expect(sentence, type).toMatch(/^[A-Z]/)
    }
  })

  it('shows a type it does not know as it is, rather than hiding it', () => {
    expect(describeForOperator({ type: 'user.teleported', details: {} })).toBe('user.teleported')
  })

  it('says who banned, why, and where a sign-in came from', () => {
    expect(describeForOperator({ type: 'user.banned', details: { reason: 'Spam' } })).toBe(
      'Banned by an operator: reason Spam',
    )
    expect(describeForOperator({ type: 'session.started', details: {}, userAgent: FIREFOX_WINDOWS })).toBe(
      'Signed in from Firefox on Windows',
    )
    expect(
      describeForOperator({
        type: 'session.started',
        details: { bySupport: true, place: { country: 'FR', city: 'Lyon' } },
        userAgent: FIREFOX_WINDOWS,
      }),
    ).toBe('Support signed in as this person from Firefox on Windows in Lyon, France')
    expect(describeForOperator({ type: 'user.unbanned', details: { expired: true } })).toBe('The ban ran out')
    expect(
      describeForOperator({ type: 'user.role-set', details: { role: 'admin', previousRole: 'user' } }),
    ).toBe('Role set to admin (was user)')
  })

  it('names the organization when the page knows it, and the reason a membership ended', () => {
    const names = new Map([['o1', 'Acme']])
    expect(
      describeForOperator(
        { type: 'organization.member-removed', details: { organizationId: 'o1', reason: 'removed' } },
        names,
      ),
    ).toBe('Removed from Acme')
    expect(
      describeForOperator(
        { type: 'organization.member-removed', details: { organizationId: 'o2', reason: 'left' } },
        names,
      ),
    ).toBe('Left an organization')
    expect(
      describeForOperator(
        { type: 'organization.member-added', details: { organizationId: 'o1', role: 'admin' } },
        names,
      ),
    ).toBe('Added to Acme as admin')
  })
})
