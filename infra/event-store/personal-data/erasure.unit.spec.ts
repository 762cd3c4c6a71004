import { describe, expect, it } from 'vitest'
import { erasedSubjects } from './erasure.js'

const metadata = {
  actor: { type: 'system' as const },
  ip: null,
  userAgent: null,
  correlationId: 'c1',
  causationId: null,
  at: '2026-01-01T00:00:00.000Z',
}

describe('the subjects an append erases', () => {
  it("is the deleted user's own key, and the keys the deletion names beside it", () => {
    expect(
      erasedSubjects([
        {
          type: 'user.deleted',
          data: { userId: 'u1', email: 'a@x.test', alsoErases: ['invitee:k', 'invitee:k:1'] },
          metadata,
        },
      ]),
    ).toEqual(['u1', 'invitee:k', 'invitee:k:1'])
  })

  it('is nothing for events that forget nobody, whatever their data says', () => {
    expect(
      erasedSubjects([
        {
          type: 'user.profile-updated',
          data: { userId: 'u1', name: 'A', alsoErases: ['invitee:k'] },
          metadata,
        },
      ]),
    ).toEqual([])
  })
})
