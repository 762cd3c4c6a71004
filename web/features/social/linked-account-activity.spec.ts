import { describe, expect, it } from 'vitest'
import { describeActivity } from '../activity/describe-activity.js'

const entry = (type: string, details: Record<string, unknown>) => ({
  id: 'e1',
  type,
  at: '2026-03-05T10:00:00.000Z',
  ip: null,
  userAgent: null,
  details,
})

describe('linked accounts in the activity feed', () => {
  it('says which service was connected or disconnected, never the event name', () => {
    expect(describeActivity(entry('account.linked', { providerId: 'github', accountId: 'a1' }))).toBe(
      'You connected a sign-in service: github',
    )
    expect(describeActivity(entry('account.unlinked', { providerId: 'github', accountId: 'a1' }))).toBe(
      'You disconnected a sign-in service: github',
    )
  })
})
