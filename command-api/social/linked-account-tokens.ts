/// The provider tokens kept for the application: get-access-token (refreshing at the provider when
/// the access token expires within 5 seconds), refresh-token (always at the provider), account-info
/// (the provider's current user info). Tokens are read from the user's linked-accounts stream,
/// where they sit sealed under the user's key; no table holds them.

import { AUTH_ERRORS } from '../../domain/errors.js'
import {
  type LinkedAccount,
  linkedAccountClaims,
  linkedAccountsDecider,
  linkedAccountsStream,
} from '../../domain/linked-accounts/linked-accounts.js'
import { type Actor, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { ExchangedTokens } from '../../infra/oauth/oauth-client.js'
import type { CommandContext } from '../context.js'
import { linkedAccountsOf } from './linked-accounts-of.js'
import { storedTokens } from './social-linking.js'
import { socialProviders } from './social-providers.js'

const REFRESH_MARGIN_MS = 5000

/**
 * The account by Tessera's own id (better-auth's form), or, with `providerId` (the spec's form), by
 * the provider and the provider's own account id.
 */
const accountOf = async (
  ctx: CommandContext,
  userId: string,
  accountId: string,
  providerId?: string,
): Promise<LinkedAccount> => {
  const state = await linkedAccountsOf(ctx, userId)
  const account =
    state.accounts.find((candidate) => candidate.accountId === accountId) ??
    (providerId === undefined
      ? undefined
      : state.accounts.find(
          (candidate) => candidate.providerId === providerId && candidate.providerAccountId === accountId,
        ))
  if (!account) throw AUTH_ERRORS.error('ACCOUNT_NOT_FOUND')
  return account
}

const providerFor = (ctx: CommandContext, account: LinkedAccount) => {
  const provider = socialProviders(ctx.config).get(account.providerId)
  if (!provider) throw AUTH_ERRORS.error('PROVIDER_NOT_SUPPORTED')
  return provider
}

const record = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  accountId: string,
  tokens: ExchangedTokens,
  actor: Actor,
) => {
  await ctx.handle(
    linkedAccountsDecider,
    linkedAccountsStream(userId),
    { type: 'update-tokens', accountId, tokens: storedTokens(tokens), now: ctx.clock().toISOString() },
    { metadata: metadataFor(origin, actor, ctx.clock()), claims: linkedAccountClaims },
  )
}

const scopesOf = (scope: string | null) =>
  scope
    ? scope
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : []
const dateOf = (value: string | null) => (value ? new Date(value) : undefined)

export type AccessTokenAnswer = {
  accessToken: string | undefined
  accessTokenExpiresAt: Date | undefined
  scopes: string[]
  idToken: string | undefined
}

/** Whose account, and who asks: the user (a session) or a backend (the server API). */
export type AccountRef = { userId: string; accountId: string; providerId?: string | undefined; actor: Actor }

export const getAccessToken = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { userId, accountId: given, providerId, actor }: AccountRef,
): Promise<AccessTokenAnswer> => {
  const account = await accountOf(ctx, userId, given, providerId)
  const { accountId } = account
  const provider = providerFor(ctx, account)
  const expiresAt = account.accessTokenExpiresAt ? Date.parse(account.accessTokenExpiresAt) : null
  const expiring = expiresAt !== null && expiresAt - ctx.clock().getTime() < REFRESH_MARGIN_MS
  if (!expiring || !account.refreshToken)
    return {
      accessToken: account.accessToken ?? undefined,
      accessTokenExpiresAt: dateOf(account.accessTokenExpiresAt),
      scopes: scopesOf(account.scope),
      idToken: account.idToken ?? undefined,
    }
  let fresh: ExchangedTokens
  try {
    fresh = await provider.refresh(account.refreshToken)
  } catch {
    throw AUTH_ERRORS.error('FAILED_TO_GET_ACCESS_TOKEN')
  }
  await record(ctx, origin, userId, accountId, fresh, actor)
  return {
    accessToken: fresh.accessToken ?? undefined,
    accessTokenExpiresAt: dateOf(fresh.accessTokenExpiresAt),
    scopes: scopesOf(account.scope),
    idToken: fresh.idToken ?? account.idToken ?? undefined,
  }
}

export const refreshAccessToken = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { userId, accountId: given, providerId, actor }: AccountRef,
) => {
  const account = await accountOf(ctx, userId, given, providerId)
  const { accountId } = account
  const provider = providerFor(ctx, account)
  if (!account.refreshToken) throw AUTH_ERRORS.error('REFRESH_TOKEN_NOT_FOUND')
  let fresh: ExchangedTokens
  try {
    fresh = await provider.refresh(account.refreshToken)
  } catch {
    throw AUTH_ERRORS.error('FAILED_TO_REFRESH_ACCESS_TOKEN')
  }
  await record(ctx, origin, userId, accountId, fresh, actor)
  return {
    accessToken: fresh.accessToken ?? undefined,
    refreshToken: fresh.refreshToken ?? account.refreshToken,
    accessTokenExpiresAt: dateOf(fresh.accessTokenExpiresAt),
    refreshTokenExpiresAt: dateOf(fresh.refreshTokenExpiresAt ?? account.refreshTokenExpiresAt),
    scope: account.scope ?? undefined,
    idToken: fresh.idToken ?? account.idToken ?? undefined,
    providerId: account.providerId,
    accountId: account.accountId,
  }
}

export const accountInfo = async (ctx: CommandContext, origin: RequestOrigin, ref: AccountRef) => {
  const account = await accountOf(ctx, ref.userId, ref.accountId, ref.providerId)
  const provider = providerFor(ctx, account)
  const tokens = await getAccessToken(ctx, origin, ref)
  if (!tokens.accessToken) throw AUTH_ERRORS.error('ACCESS_TOKEN_NOT_FOUND')
  let info: Awaited<ReturnType<typeof provider.profile>>
  try {
    info = await provider.profile({ accessToken: tokens.accessToken }, null)
  } catch {
    throw AUTH_ERRORS.error('FAILED_TO_GET_USER_INFO')
  }
  const { profile, data } = info
  return {
    user: {
      id: profile.id,
      name: profile.name,
      email: profile.email,
      image: profile.image ?? undefined,
      emailVerified: profile.emailVerified,
    },
    data,
    account: { id: account.accountId, providerId: account.providerId, accountId: account.providerAccountId },
  }
}
