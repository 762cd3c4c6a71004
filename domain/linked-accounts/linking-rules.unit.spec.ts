/// The account-linking rules social sign-in used to refuse at the HTTP edge, now decided by the
/// linked-accounts decider on `link-account` with the facts the edge resolved (`consent`).

import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type LinkedAccountCommand, linkedAccountsDecider, type ProviderTokens } from './linked-accounts.js'
import type { LinkConsent } from './linking-rules.js'

const { given } = specFor(linkedAccountsDecider)
const NOW = '2030-01-01T00:00:00.000Z'
const tokens: ProviderTokens = {
  accessToken: 'a1',
  refreshToken: null,
  idToken: null,
  accessTokenExpiresAt: null,
  refreshTokenExpiresAt: null,
  scope: null,
}
const link = (consent: LinkConsent): LinkedAccountCommand => ({
  type: 'link-account',
  userId: 'u1',
  accountId: 'acc-1',
  providerId: 'acme',
  providerAccountId: 'p1',
  email: 'ada@example.com',
  tokens,
  now: NOW,
  consent,
})
const linked = [
  {
    type: 'account.linked' as const,
    data: {
      userId: 'u1',
      accountId: 'acc-1',
      providerId: 'acme',
      providerAccountId: 'p1',
      email: 'ada@example.com',
      linkedAt: NOW,
      ...tokens,
    },
  },
]

const implicit = (change: Partial<Extract<LinkConsent, { how: 'implicit' }>> = {}): LinkConsent => ({
  how: 'implicit',
  vouched: true,
  linkingEnabled: true,
  implicitLinkingDisabled: false,
  requireLocalEmailVerified: false,
  localEmailVerified: false,
  ...change,
})
const asked = (
  how: 'link-flow' | 'id-token',
  change: Partial<Extract<LinkConsent, { how: 'link-flow' | 'id-token' }>> = {},
): LinkConsent => ({
  how,
  vouched: true,
  linkingEnabled: true,
  sameEmail: true,
  allowDifferentEmails: false,
  ownerUserId: null,
  ...change,
})

describe('signing in with the address of an existing user links implicitly', () => {
  it('when the provider vouches and linking is on', () => given([]).when(link(implicit())).then(linked))
  it('not when the provider does not vouch for the address', () =>
    given([])
      .when(link(implicit({ vouched: false })))
      .thenThrows('ACCOUNT_NOT_LINKED'))
  it('not when linking is off, or implicit linking is', () => {
    given([])
      .when(link(implicit({ linkingEnabled: false })))
      .thenThrows('ACCOUNT_NOT_LINKED')
    given([])
      .when(link(implicit({ implicitLinkingDisabled: true })))
      .thenThrows('ACCOUNT_NOT_LINKED')
  })
  it('not to an unverified local address when a verified one is required', () => {
    given([])
      .when(link(implicit({ requireLocalEmailVerified: true })))
      .thenThrows('ACCOUNT_NOT_LINKED')
    given([])
      .when(link(implicit({ requireLocalEmailVerified: true, localEmailVerified: true })))
      .then(linked)
  })
})

describe('a signed-in user links an account (link-social)', () => {
  for (const how of ['link-flow', 'id-token'] as const) {
    it(`${how}: links when the provider vouches, linking is on and the address is theirs`, () =>
      given([])
        .when(link(asked(how)))
        .then(linked))
    it(`${how}: not when the provider does not vouch, or linking is off`, () => {
      given([])
        .when(link(asked(how, { vouched: false })))
        .thenThrows('LINKING_NOT_ALLOWED')
      given([])
        .when(link(asked(how, { linkingEnabled: false })))
        .thenThrows('LINKING_NOT_ALLOWED')
    })
    it(`${how}: another address only when different ones are allowed`, () => {
      given([])
        .when(link(asked(how, { sameEmail: false })))
        .thenThrows('LINKING_DIFFERENT_EMAILS_NOT_ALLOWED')
      given([])
        .when(link(asked(how, { sameEmail: false, allowDifferentEmails: true })))
        .then(linked)
    })
  }
  it("link flow: refuses another user's account, after the other rules (better-auth's order)", () => {
    given([])
      .when(link(asked('link-flow', { ownerUserId: 'u2' })))
      .thenThrows('ACCOUNT_LINKED_TO_ANOTHER_USER', { status: 409 })
    given([])
      .when(link(asked('link-flow', { ownerUserId: 'u2', linkingEnabled: false })))
      .thenThrows('LINKING_NOT_ALLOWED')
  })
  it("id token: refuses another user's account before the other rules", () =>
    given([])
      .when(link(asked('id-token', { ownerUserId: 'u2', linkingEnabled: false })))
      .thenThrows('ACCOUNT_LINKED_TO_ANOTHER_USER'))
  it('id token: an account already theirs only renews its tokens, whatever the rules say', () =>
    given(linked)
      .when(link(asked('id-token', { ownerUserId: 'u1', vouched: false, sameEmail: false })))
      .then([
        {
          type: 'account.tokens-updated',
          data: { userId: 'u1', accountId: 'acc-1', updatedAt: NOW, ...tokens },
        },
      ]))
})

describe("a sign-up through a provider makes a new account only as the provider's options allow", () => {
  const signUp = (change: Partial<Extract<LinkConsent, { how: 'sign-up' }>> = {}): LinkConsent => ({
    how: 'sign-up',
    signUpDisabled: false,
    implicitSignUpDisabled: false,
    signUpRequested: false,
    ...change,
  })
  it('links the new account when sign-up is on', () => given([]).when(link(signUp())).then(linked))
  it('not when the provider disables sign-up, even when asked for', () =>
    given([])
      .when(link(signUp({ signUpDisabled: true, signUpRequested: true })))
      .thenThrows('PROVIDER_SIGN_UP_DISABLED', { message: 'signup disabled' }))
  it('with implicit sign-up off, only when the sign-in asked for an account', () => {
    given([])
      .when(link(signUp({ implicitSignUpDisabled: true })))
      .thenThrows('PROVIDER_SIGN_UP_DISABLED')
    given([])
      .when(link(signUp({ implicitSignUpDisabled: true, signUpRequested: true })))
      .then(linked)
  })
})
