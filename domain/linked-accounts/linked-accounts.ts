/// The social accounts linked to one user: an aggregate of its own, one stream per user
/// (`linked-accounts-<userId>`), beside the user aggregate rather than inside it. The user stream
/// keeps the identity and the password; this one keeps which provider accounts may sign in as the
/// user and the provider tokens kept for the application. Its rules (one provider account per user,
/// a provider account links to one user through the store claim `account.provider`, the last way
/// to sign in cannot be unlinked) need only these accounts plus one fact from the user stream,
/// whether a password exists, which the caller passes in. The subject of every event is the user,
/// so tokens are sealed under the user's key and become unreadable when the user is deleted.

import { AUTH_ERRORS } from '../errors.js'
import type { Decider } from '../shared/decider.js'
import { type LinkConsent, refuseDisallowedLink } from './linking-rules.js'

export const linkedAccountsStream = (userId: string): string => `linked-accounts-${userId}`

/** Claim scope: `<providerId>:<provider account id>` is owned by one user. */
export const PROVIDER_ACCOUNT_CLAIM_SCOPE = 'account.provider'
export const providerAccountKey = (providerId: string, providerAccountId: string): string =>
  `${providerId}:${providerAccountId}`

/** What a provider handed out at the last token exchange or refresh. Secrets: sealed, never shown. */
export type ProviderTokens = {
  accessToken: string | null
  refreshToken: string | null
  idToken: string | null
  accessTokenExpiresAt: string | null
  refreshTokenExpiresAt: string | null
  /** Comma-separated, as better-auth stores it. */
  scope: string | null
}

export type LinkedAccountEvent =
  | {
      type: 'account.linked'
      data: {
        userId: string
        /** Tessera's own id of the link (list-accounts' `id`). */
        accountId: string
        providerId: string
        /** The provider's subject for the person. */
        providerAccountId: string
        /** The address the provider gave when linked, for the owner's records. */
        email: string | null
        linkedAt: string
      } & ProviderTokens
    }
  | {
      type: 'account.tokens-updated'
      data: { userId: string; accountId: string; updatedAt: string } & ProviderTokens
    }
  | {
      type: 'account.unlinked'
      data: {
        userId: string
        accountId: string
        providerId: string
        providerAccountId: string
        unlinkedAt: string
      }
    }

export type LinkedAccountCommand =
  | {
      type: 'link-account'
      userId: string
      accountId: string
      providerId: string
      providerAccountId: string
      email: string | null
      tokens: ProviderTokens
      now: string
      /** The linking rules' facts when a person links the account (linking-rules.ts); none on sign-up. */
      consent?: LinkConsent
    }
  | { type: 'update-tokens'; accountId: string; tokens: ProviderTokens; now: string }
  | {
      type: 'unlink-account'
      accountId: string
      /** The user has a password (a credential account), which counts as a way to sign in. */
      hasPassword: boolean
      allowUnlinkingAll: boolean
      /** The session asking signed in within `session.freshAge` (checked by the edge, judged here). */
      sessionFresh: boolean
      now: string
    }

export type LinkedAccount = {
  accountId: string
  providerId: string
  providerAccountId: string
  linkedAt: string
  updatedAt: string
} & ProviderTokens

export type LinkedAccounts = { userId: string | null; accounts: LinkedAccount[] }

const initialState = (): LinkedAccounts => ({ userId: null, accounts: [] })

const tokensOf = (data: ProviderTokens): ProviderTokens => ({
  accessToken: data.accessToken,
  refreshToken: data.refreshToken,
  idToken: data.idToken,
  accessTokenExpiresAt: data.accessTokenExpiresAt,
  refreshTokenExpiresAt: data.refreshTokenExpiresAt,
  scope: data.scope,
})

const evolve = (state: LinkedAccounts, event: LinkedAccountEvent): LinkedAccounts => {
  switch (event.type) {
    case 'account.linked': {
      const { accountId, providerId, providerAccountId, linkedAt } = event.data
      const account = { accountId, providerId, providerAccountId, linkedAt, updatedAt: linkedAt }
      return {
        userId: event.data.userId,
        accounts: [...state.accounts, { ...account, ...tokensOf(event.data) }],
      }
    }
    case 'account.tokens-updated':
      return {
        ...state,
        accounts: state.accounts.map((account) =>
          account.accountId === event.data.accountId
            ? { ...account, ...keepKnown(account, tokensOf(event.data)), updatedAt: event.data.updatedAt }
            : account,
        ),
      }
    case 'account.unlinked':
      return {
        ...state,
        accounts: state.accounts.filter((account) => account.accountId !== event.data.accountId),
      }
  }
}

/** A refresh that hands out no new refresh token (or id token) keeps the old one. */
const keepKnown = (current: ProviderTokens, next: ProviderTokens): ProviderTokens => ({
  accessToken: next.accessToken,
  accessTokenExpiresAt: next.accessTokenExpiresAt,
  refreshToken: next.refreshToken ?? current.refreshToken,
  refreshTokenExpiresAt: next.refreshTokenExpiresAt ?? current.refreshTokenExpiresAt,
  idToken: next.idToken ?? current.idToken,
  scope: next.scope ?? current.scope,
})

const decide = (command: LinkedAccountCommand, state: LinkedAccounts): LinkedAccountEvent[] => {
  switch (command.type) {
    case 'link-account': {
      const { type: _, tokens, now, consent, ...link } = command
      if (consent) refuseDisallowedLink(link.userId, consent)
      const same = state.accounts.find(
        (account) =>
          account.providerId === link.providerId && account.providerAccountId === link.providerAccountId,
      )
      // Signing in again through a linked account only renews what the provider handed out.
      if (same)
        return [
          {
            type: 'account.tokens-updated',
            data: { userId: link.userId, accountId: same.accountId, updatedAt: now, ...tokens },
          },
        ]
      // One account per provider and user: a second one of the same provider would be ambiguous.
      if (state.accounts.some((account) => account.providerId === link.providerId))
        throw AUTH_ERRORS.error('SOCIAL_ACCOUNT_ALREADY_LINKED')
      return [{ type: 'account.linked', data: { ...link, linkedAt: now, ...tokens } }]
    }
    case 'update-tokens': {
      const account = state.accounts.find((candidate) => candidate.accountId === command.accountId)
      if (!account || state.userId === null) throw AUTH_ERRORS.error('ACCOUNT_NOT_FOUND')
      return [
        {
          type: 'account.tokens-updated',
          data: {
            userId: state.userId,
            accountId: account.accountId,
            updatedAt: command.now,
            ...command.tokens,
          },
        },
      ]
    }
    case 'unlink-account': {
      // better-auth's fresh-session rule comes before every other answer of unlink-account.
      if (!command.sessionFresh) throw AUTH_ERRORS.error('SESSION_NOT_FRESH')
      const waysToSignIn = state.accounts.length + (command.hasPassword ? 1 : 0)
      if (waysToSignIn <= 1 && !command.allowUnlinkingAll)
        throw AUTH_ERRORS.error('FAILED_TO_UNLINK_LAST_ACCOUNT')
      const account = state.accounts.find((candidate) => candidate.accountId === command.accountId)
      if (!account || state.userId === null) throw AUTH_ERRORS.error('ACCOUNT_NOT_FOUND')
      return [
        {
          type: 'account.unlinked',
          data: {
            userId: state.userId,
            accountId: account.accountId,
            providerId: account.providerId,
            providerAccountId: account.providerAccountId,
            unlinkedAt: command.now,
          },
        },
      ]
    }
  }
}

export const linkedAccountsDecider: Decider<LinkedAccountCommand, LinkedAccountEvent, LinkedAccounts> = {
  decide,
  evolve,
  initialState,
}

/** Claims the link events take or give up (the owner is the user). */
export const linkedAccountClaims = (events: readonly LinkedAccountEvent[]) =>
  events.flatMap((event) => {
    if (event.type === 'account.tokens-updated') return []
    const { providerId, providerAccountId, userId } = event.data
    return [
      {
        op: event.type === 'account.linked' ? ('claim' as const) : ('release' as const),
        scope: PROVIDER_ACCOUNT_CLAIM_SCOPE,
        value: providerAccountKey(providerId, providerAccountId),
        owner: userId,
      },
    ]
  })
