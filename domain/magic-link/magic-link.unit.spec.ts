import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type MagicLinkEvent, type MagicLinkRequest, magicLinkDecider } from './magic-link.js'

const { given } = specFor(magicLinkDecider)

const request: MagicLinkRequest = {
  tokenHash: 'h1',
  requestId: 'r1',
  email: 'ada@example.com',
  name: 'Ada',
  callbackURL: '/home',
  newUserCallbackURL: null,
  errorCallbackURL: null,
  expiresAt: '2026-11-01T10:05:00.000Z',
  userId: null,
  addressSubject: 'invitee:x',
}
const requested: MagicLinkEvent = { type: 'magic-link.requested', data: request }
const use = (now: string) => ({ type: 'use-magic-link', tokenHash: 'h1', now }) as const

describe('a magic link', () => {
  it('is recorded as asked for, token hash and all', () => {
    given([])
      .when({ type: 'request-magic-link', ...request })
      .then([requested])
  })

  it('signs in once, before it expires', () => {
    given([requested])
      .when(use('2026-11-01T10:04:59.000Z'))
      .then([{ type: 'magic-link.used', data: { tokenHash: 'h1', usedAt: '2026-11-01T10:04:59.000Z' } }])
  })

  it('is refused a second time', () => {
    given([
      requested,
      { type: 'magic-link.used', data: { tokenHash: 'h1', usedAt: '2026-11-01T10:01:00.000Z' } },
    ])
      .when(use('2026-11-01T10:02:00.000Z'))
      .thenThrows('INVALID_TOKEN')
  })

  it('is refused once expired, and when nobody asked for it', () => {
    given([requested]).when(use('2026-11-01T10:05:00.000Z')).thenThrows('INVALID_TOKEN')
    given([]).when(use('2026-11-01T10:00:00.000Z')).thenThrows('INVALID_TOKEN')
  })
})
