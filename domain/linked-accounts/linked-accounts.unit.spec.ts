import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import {
  type LinkedAccountEvent,
  linkedAccountClaims,
  linkedAccountsDecider,
  type ProviderTokens,
} from './linked-accounts.js'

const { given } = specFor(linkedAccountsDecider)
const NOW = '2030-01-01T00:00:00.000Z'
const tokens = (accessToken: string, refreshToken: string | null = 'r1'): ProviderTokens => ({
  accessToken,
  refreshToken,
  idToken: null,
  accessTokenExpiresAt: null,
  refreshTokenExpiresAt: null,
  scope: 'openid,email',
})
const linked = (accountId: string, providerId: string, providerAccountId: string): LinkedAccountEvent => ({
  type: 'account.linked',
  data: {
    userId: 'u1',
    accountId,
    providerId,
    providerAccountId,
    email: null,
    linkedAt: NOW,
    ...tokens('a1'),
  },
})
const link = (providerId: string, providerAccountId: string) => ({
  type: 'link-account' as const,
  userId: 'u1',
  accountId: 'new',
  providerId,
  providerAccountId,
  email: 'ada@example.com',
  tokens: tokens('a2'),
  now: NOW,
})

describe('linked accounts', () => {
  it('links a first account, and renews the tokens when the same provider account signs in again', () => {
    given([])
      .when(link('acme', 'p1'))
      .then([
        {
          type: 'account.linked',
          data: {
            userId: 'u1',
            accountId: 'new',
            providerId: 'acme',
            providerAccountId: 'p1',
            email: 'ada@example.com',
            linkedAt: NOW,
            ...tokens('a2'),
          },
        },
      ])
    given([linked('a', 'acme', 'p1')])
      .when(link('acme', 'p1'))
      .then([
        {
          type: 'account.tokens-updated',
          data: { userId: 'u1', accountId: 'a', updatedAt: NOW, ...tokens('a2') },
        },
      ])
  })

  it('refuses a second account of the same provider', () => {
    given([linked('a', 'acme', 'p1')])
      .when(link('acme', 'p2'))
      .thenThrows('SOCIAL_ACCOUNT_ALREADY_LINKED')
  })

  it('never unlinks the last way to sign in; a password counts as one', () => {
    const unlink = (hasPassword: boolean) => ({
      type: 'unlink-account' as const,
      accountId: 'a',
      hasPassword,
      allowUnlinkingAll: false,
      sessionFresh: true,
      now: NOW,
    })
    given([linked('a', 'acme', 'p1')])
      .when(unlink(false))
      .thenThrows('FAILED_TO_UNLINK_LAST_ACCOUNT')
    given([linked('a', 'acme', 'p1')])
      .when(unlink(true))
      .then([
        {
          type: 'account.unlinked',
          data: {
            userId: 'u1',
            accountId: 'a',
            providerId: 'acme',
            providerAccountId: 'p1',
            unlinkedAt: NOW,
          },
        },
      ])
    given([linked('a', 'acme', 'p1'), linked('b', 'other', 'p9')])
      .when({ ...unlink(false), accountId: 'zz' })
      .thenThrows('ACCOUNT_NOT_FOUND')
  })

  it('unlinks only for a session fresh enough, before any other answer', () => {
    const stale = {
      type: 'unlink-account' as const,
      accountId: 'a',
      hasPassword: true,
      allowUnlinkingAll: false,
      sessionFresh: false,
      now: NOW,
    }
    given([linked('a', 'acme', 'p1')])
      .when(stale)
      .thenThrows('SESSION_NOT_FRESH', { status: 403, message: 'Session is not fresh' })
    // Even the last account, or an unknown one, is refused for the session first (better-auth's order).
    given([linked('a', 'acme', 'p1')])
      .when({ ...stale, hasPassword: false })
      .thenThrows('SESSION_NOT_FRESH')
    given([])
      .when({ ...stale, accountId: 'zz' })
      .thenThrows('SESSION_NOT_FRESH')
  })

  it('keeps the refresh token a refresh did not replace', () => {
    const state = [linked('a', 'acme', 'p1')].reduce(
      linkedAccountsDecider.evolve,
      linkedAccountsDecider.initialState(),
    )
    const next = linkedAccountsDecider.evolve(state, {
      type: 'account.tokens-updated',
      data: { userId: 'u1', accountId: 'a', updatedAt: NOW, ...tokens('a3', null) },
    })
    expect(next.accounts[0]).toMatchObject({ accessToken: 'a3', refreshToken: 'r1' })
  })

  it('claims the provider account for the user on link and releases it on unlink', () => {
    const [claim] = linkedAccountClaims([linked('a', 'acme', 'p1')])
    expect(claim).toEqual({ op: 'claim', scope: 'account.provider', value: 'acme:p1', owner: 'u1' })
  })
})
