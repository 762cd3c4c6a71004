import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type OAuthConsentEvent, oauthConsentDecider } from './oauth-consent.js'

const { given } = specFor(oauthConsentDecider)

const granted: OAuthConsentEvent = {
  type: 'oauth-consent.granted',
  data: { userId: 'u1', clientId: 'c1', scopes: ['openid', 'email'], at: '2031-01-01T10:00:00.000Z' },
}
const update = (scopes: string[]) => ({
  type: 'update-consent' as const,
  userId: 'u1',
  clientId: 'c1',
  scopes,
  allowedScopes: ['openid', 'email', 'profile'],
  now: '2031-01-02T10:00:00.000Z',
})

describe('a consent', () => {
  it('changes to the scopes the person now agrees to', () => {
    given([granted])
      .when(update(['openid']))
      .then([
        {
          type: 'oauth-consent.granted',
          data: { userId: 'u1', clientId: 'c1', scopes: ['openid'], at: '2031-01-02T10:00:00.000Z' },
        },
      ])
  })

  it('records nothing when the scopes are the same set', () => {
    given([granted])
      .when(update(['email', 'openid']))
      .then([])
  })

  it('refuses a scope the client may not ask for', () => {
    given([granted])
      .when(update(['openid', 'admin']))
      .thenThrows('invalid_request')
  })

  it('cannot be changed or revoked once revoked, or before it was given', () => {
    const revoked: OAuthConsentEvent = {
      type: 'oauth-consent.revoked',
      data: { userId: 'u1', clientId: 'c1' },
    }
    given([granted, revoked])
      .when(update(['openid']))
      .thenThrows('not_found')
    given([]).when({ type: 'revoke-consent', userId: 'u1', clientId: 'c1' }).thenThrows('not_found')
  })
})
