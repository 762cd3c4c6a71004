/// What a provider's answer leads to, once its profile is known: sign in the user the provider
/// account is linked to, link it to the user with the same email (when the provider is trusted or
/// says the email is verified, and the local email is verified too, as better-auth's defaults), or
/// create a new user; and, in a link flow, attach it to the signed-in user. Failures carry the
/// codes better-auth puts in the error redirect.

import {
  linkedAccountClaims,
  linkedAccountsDecider,
  linkedAccountsStream,
  PROVIDER_ACCOUNT_CLAIM_SCOPE,
  type ProviderTokens,
  providerAccountKey,
} from '../../domain/linked-accounts/linked-accounts.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { parseEmail } from '../../domain/user/email.js'
import { userClaims, userDecider, userStream } from '../../domain/user/user.js'
import { newId } from '../../infra/crypto/tokens.js'
import { type UniqueClaim, UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { ExchangedTokens, ProviderProfile, SocialProvider } from '../../infra/oauth/oauth-client.js'
import { findUserByEmail, findUserById } from '../../projections/users/users.repository.js'
import type { UserRow } from '../../projections/users/users.table.js'
import type { CommandContext } from '../context.js'
import { type StartedSession, startSession } from '../sessions/start-session.js'
import { grantAdminIfListed } from '../shared/admin-emails.js'

/** A flow that ends on the error page (or errorCallbackURL) with `?error=<code>`. */
export class SocialFlowError extends Error {
  override readonly name = 'SocialFlowError'
  constructor(readonly code: string) {
    super(code)
  }
}

export type SocialSignInResult = { session: StartedSession; user: UserRow; isNewUser: boolean }

export const storedTokens = (tokens: ExchangedTokens): ProviderTokens => ({
  accessToken: tokens.accessToken,
  refreshToken: tokens.refreshToken,
  idToken: tokens.idToken,
  accessTokenExpiresAt: tokens.accessTokenExpiresAt,
  refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
  scope: tokens.scope,
})

type Found = { provider: SocialProvider; profile: ProviderProfile; tokens: ExchangedTokens }

/** The live user that holds this provider account, if any, and a stale owner (deleted user). */
const ownerOf = async (ctx: CommandContext, providerId: string, providerAccountId: string) => {
  const ownerId = await ctx.store.claimOwner(
    PROVIDER_ACCOUNT_CLAIM_SCOPE,
    providerAccountKey(providerId, providerAccountId),
  )
  if (ownerId === null) return { user: null, staleOwner: null }
  const user = await findUserById(ctx.db, ownerId)
  return user ? { user, staleOwner: null } : { user: null, staleOwner: ownerId }
}

const linkAccount = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  { provider, profile, tokens }: Found,
  staleOwner: string | null,
) => {
  // A deleted user's claim on this provider account is given up in the same append.
  const release: UniqueClaim[] = staleOwner
    ? [
        {
          op: 'release',
          scope: PROVIDER_ACCOUNT_CLAIM_SCOPE,
          value: providerAccountKey(provider.id, profile.id),
          owner: staleOwner,
        },
      ]
    : []
  try {
    await ctx.handle(
      linkedAccountsDecider,
      linkedAccountsStream(userId),
      {
        type: 'link-account',
        userId,
        accountId: newId(),
        providerId: provider.id,
        providerAccountId: profile.id,
        email: profile.email,
        tokens: storedTokens(tokens),
        now: ctx.clock().toISOString(),
      },
      {
        metadata: metadataFor(origin, { type: 'user', userId }, ctx.clock()),
        claims: (events) => [...release, ...linkedAccountClaims(events)],
      },
    )
  } catch (error) {
    if (error instanceof UniqueClaimConflictError)
      throw new SocialFlowError('account_already_linked_to_different_user')
    throw error
  }
}

/** Sign-in or sign-up through a provider (the callback, or an id token given directly). */
export const signInWithProvider = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  found: Found,
): Promise<SocialSignInResult> => {
  const { provider, profile } = found
  if (!profile.email) throw new SocialFlowError('email_not_found')
  const email = parseEmail(profile.email)
  const owner = await ownerOf(ctx, provider.id, profile.id)
  if (owner.user) {
    // Renews the tokens kept for the application.
    await linkAccount(ctx, origin, owner.user.id, found, null)
    return {
      session: await startSession(ctx, origin, { userId: owner.user.id, rememberMe: true }),
      user: owner.user,
      isNewUser: false,
    }
  }
  const existing = await findUserByEmail(ctx.db, email)
  if (existing) {
    const providerVouches = provider.trusted || profile.emailVerified
    if (!providerVouches || !existing.email_verified) throw new SocialFlowError('account_not_linked')
    await linkAccount(ctx, origin, existing.id, found, owner.staleOwner)
    return {
      session: await startSession(ctx, origin, { userId: existing.id, rememberMe: true }),
      user: existing,
      isNewUser: false,
    }
  }
  const userId = newId()
  const metadata = metadataFor(origin, { type: 'anonymous' }, ctx.clock())
  try {
    await ctx.handle(
      userDecider,
      userStream(userId),
      {
        type: 'register-user',
        userId,
        email,
        name: profile.name || email,
        image: profile.image,
        credential: null,
        sendVerification: false,
        callbackURL: null,
      },
      { metadata, claims: userClaims },
    )
  } catch (error) {
    // Someone signed up with this address a moment ago: treat it as the existing-user case next time.
    if (error instanceof UniqueClaimConflictError) throw new SocialFlowError('unable_to_create_user')
    throw error
  }
  // The provider vouched for the address: it counts as verified here too.
  if (profile.emailVerified) {
    const verified = await ctx.handle(
      userDecider,
      userStream(userId),
      { type: 'verify-email', email },
      { metadata, claims: userClaims },
    )
    // A provider-verified address listed in ADMIN_EMAILS makes the account an admin (once).
    await grantAdminIfListed(ctx, origin, userId, verified.events)
  }
  await linkAccount(ctx, origin, userId, found, owner.staleOwner)
  const user = await findUserById(ctx.db, userId)
  if (!user) throw new SocialFlowError('unable_to_create_user')
  return { session: await startSession(ctx, origin, { userId, rememberMe: true }), user, isNewUser: true }
}

/** Attaches the provider account to the signed-in user who started a link flow. */
export const linkToUser = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  link: { userId: string; email: string },
  found: Found,
  options: { allowDifferentEmails: boolean },
): Promise<void> => {
  const { provider, profile } = found
  if (!profile.email) throw new SocialFlowError('email_not_found')
  if (profile.email.toLowerCase() !== link.email.toLowerCase() && !options.allowDifferentEmails)
    throw new SocialFlowError('email_does_not_match')
  const owner = await ownerOf(ctx, provider.id, profile.id)
  if (owner.user && owner.user.id !== link.userId)
    throw new SocialFlowError('account_already_linked_to_different_user')
  try {
    await linkAccount(ctx, origin, link.userId, found, owner.staleOwner)
  } catch (error) {
    if (error instanceof SocialFlowError) throw error
    throw new SocialFlowError('unable_to_link_account')
  }
}
