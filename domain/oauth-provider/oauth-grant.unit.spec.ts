import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type GrantTerms, type OAuthGrantEvent, oauthGrantDecider } from './oauth-grant.js'

const { given } = specFor(oauthGrantDecider)

const terms: GrantTerms = {
  grantId: 'g1',
  clientId: 'c1',
  userId: 'u1',
  sessionId: 's1',
  scopes: ['openid', 'offline_access'],
  redirectUri: 'https://app.example/cb',
  nonce: 'n',
  authTime: '2031-01-01T10:00:00.000Z',
  amr: [],
}
const issued: OAuthGrantEvent = {
  type: 'oauth-grant.code-issued',
  data: {
    ...terms,
    codeHash: 'code-hash',
    codeChallenge: 'challenge',
    expiresAt: '2031-01-01T10:10:00.000Z',
  },
}
const exchange = {
  type: 'exchange-code' as const,
  clientId: 'c1',
  codeHash: 'code-hash',
  redirectUri: 'https://app.example/cb',
  verifierChallenge: 'challenge',
  accessTokenId: 'a1',
  refreshTokenHash: 'r1',
  refreshExpiresAt: '2031-02-01T10:00:00.000Z',
  clientMayRefresh: true,
  now: '2031-01-01T10:01:00.000Z',
}
const exchanged: OAuthGrantEvent = {
  type: 'oauth-grant.code-exchanged',
  data: {
    grantId: 'g1',
    clientId: 'c1',
    userId: 'u1',
    accessTokenId: 'a1',
    refreshTokenHash: 'r1',
    refreshExpiresAt: '2031-02-01T10:00:00.000Z',
  },
}
const refresh = (hash: string) => ({
  type: 'refresh' as const,
  clientId: 'c1',
  refreshTokenHash: hash,
  newRefreshTokenHash: `${hash}+`,
  refreshExpiresAt: '2031-02-02T10:00:00.000Z',
  accessTokenId: 'a2',
  now: '2031-01-02T10:00:00.000Z',
})
const refreshed: OAuthGrantEvent = {
  type: 'oauth-grant.refreshed',
  data: {
    grantId: 'g1',
    clientId: 'c1',
    userId: 'u1',
    accessTokenId: 'a2',
    refreshTokenHash: 'r1+',
    refreshExpiresAt: '2031-02-02T10:00:00.000Z',
  },
}
const revoked = (reason: string) =>
  ({
    type: 'oauth-grant.revoked',
    data: { grantId: 'g1', clientId: 'c1', userId: 'u1', reason },
  }) as OAuthGrantEvent

describe('an authorization grant', () => {
  it('exchanges its code once, with the PKCE verifier and the same redirect URI', () => {
    given([issued]).when(exchange).then([exchanged])
    given([issued])
      .when({ ...exchange, verifierChallenge: 'other' })
      .thenThrows('invalid_grant')
    given([issued])
      .when({ ...exchange, redirectUri: 'https://app.example/other' })
      .thenThrows('invalid_grant')
    given([issued])
      .when({ ...exchange, clientId: 'c2' })
      .thenThrows('invalid_grant')
    given([issued])
      .when({ ...exchange, now: '2031-01-01T10:10:00.000Z' })
      .thenThrows('invalid_grant')
  })

  it('gives no refresh token without offline_access or when the client may not refresh', () => {
    const noRefresh = {
      ...exchanged,
      data: { ...exchanged.data, refreshTokenHash: null, refreshExpiresAt: null },
    }
    given([issued])
      .when({ ...exchange, clientMayRefresh: false })
      .then([noRefresh as OAuthGrantEvent])
    const online = { ...issued, data: { ...issued.data, scopes: ['openid'] } } as OAuthGrantEvent
    given([online])
      .when(exchange)
      .then([noRefresh as OAuthGrantEvent])
  })

  it('revokes what the code gave when the code is used a second time; a wrong code changes nothing', () => {
    given([issued, exchanged])
      .when(exchange)
      .then([revoked('code-reused')])
    given([issued, exchanged])
      .when({ ...exchange, codeHash: 'guess' })
      .thenThrows('invalid_grant')
  })

  it('rotates the refresh token on every use, and a spent one revokes the whole grant', () => {
    given([issued, exchanged]).when(refresh('r1')).then([refreshed])
    given([issued, exchanged, refreshed])
      .when(refresh('r1'))
      .then([revoked('refresh-token-reused')])
    given([issued, exchanged, refreshed, revoked('refresh-token-reused')])
      .when(refresh('r1+'))
      .thenThrows('invalid_grant')
    given([issued, exchanged]).when(refresh('unknown')).thenThrows('invalid_grant')
  })

  it('is revoked by its own client only, once', () => {
    given([issued, exchanged]).when({ type: 'revoke-grant', reason: 'revoked', clientId: 'c2' }).then([])
    given([issued, exchanged])
      .when({ type: 'revoke-grant', reason: 'revoked', clientId: 'c1' })
      .then([revoked('revoked')])
    given([issued, exchanged, revoked('revoked')])
      .when({ type: 'revoke-grant', reason: 'revoked' })
      .then([])
  })
})
