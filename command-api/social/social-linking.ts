/// Linking a provider account to a user: the facts the linked-accounts decider's linking rules need
/// (linking-rules.ts), the append that links (or renews) the account, and the flow's error code for
/// each refusal. Used by the sign-in through a provider (social-sign-in.ts) and by the link flows,
/// which attach an account to the signed-in user.

import {
  linkedAccountClaims,
  linkedAccountsDecider,
  linkedAccountsStream,
  PROVIDER_ACCOUNT_CLAIM_SCOPE,
  type ProviderTokens,
  providerAccountKey,
} from '../../domain/linked-accounts/linked-accounts.js'
import type { LinkConsent } from '../../domain/linked-accounts/linking-rules.js'
import { DomainError } from '../../domain/shared/errors.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { newId } from '../../infra/crypto/tokens.js'
import { type UniqueClaim, UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { ExchangedTokens, ProviderProfile, SocialProvider } from '../../infra/oauth/oauth-client.js'
import type { CommandContext } from '../context.js'
import { handlePart } from '../shared/handle.js'
import type { LinkAccount } from '../shared/register-with-provider-account.js'
import { copyNameAndImage } from './provider-user-info.js'
import { SocialFlowError } from './social-flow-error.js'

export const storedTokens = (tokens: ExchangedTokens): ProviderTokens => ({
  accessToken: tokens.accessToken,
  refreshToken: tokens.refreshToken,
  idToken: tokens.idToken,
  accessTokenExpiresAt: tokens.accessTokenExpiresAt,
  refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
  scope: tokens.scope,
})

export type Found = { provider: SocialProvider; profile: ProviderProfile; tokens: ExchangedTokens }

export const linkingOf = (ctx: CommandContext) => ctx.config.account.accountLinking

/** Trusted: its word on an address is enough to link by it (its own `trusted` or the linking list). */
export const isTrusted = (ctx: CommandContext, provider: SocialProvider): boolean =>
  provider.trusted || linkingOf(ctx).trustedProviders.includes(provider.id)

/** A provider vouches for linking by email: trusted, or it says it verified the address. */
export const vouches = (ctx: CommandContext, { provider, profile }: Found) =>
  isTrusted(ctx, provider) || profile.emailVerified

/** The live user that holds this provider account, if any, and a stale owner (deleted user). */
export const ownerOf = async (ctx: CommandContext, providerId: string, providerAccountId: string) => {
  const ownerId = await ctx.store.claimOwner(
    PROVIDER_ACCOUNT_CLAIM_SCOPE,
    providerAccountKey(providerId, providerAccountId),
  )
  if (ownerId === null) return { user: null, staleOwner: null }
  const user = await ctx.lookups.users.byId(ownerId)
  return user ? { user, staleOwner: null } : { user: null, staleOwner: ownerId }
}

/** A deleted user's claim on the provider account, given up in the append that claims it anew. */
export const releaseStale = (found: Found, staleOwner: string | null): UniqueClaim[] =>
  staleOwner
    ? [
        {
          op: 'release',
          scope: PROVIDER_ACCOUNT_CLAIM_SCOPE,
          value: providerAccountKey(found.provider.id, found.profile.id),
          owner: staleOwner,
        },
      ]
    : []

/** The command that links the account to `userId`, or, when it is linked there already, renews its tokens. */
export const linkCommand = (
  ctx: CommandContext,
  userId: string,
  { provider, profile, tokens }: Found,
  consent?: LinkConsent,
): LinkAccount => ({
  type: 'link-account',
  userId,
  accountId: newId(),
  providerId: provider.id,
  providerAccountId: profile.id,
  email: profile.email,
  tokens: storedTokens(tokens),
  now: ctx.clock().toISOString(),
  ...(consent ? { consent } : {}),
})

const linkPart = (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  { provider, profile, tokens }: Found,
  staleOwner: string | null,
  consent?: LinkConsent,
  newStream = false,
) =>
  handlePart(
    linkedAccountsDecider,
    linkedAccountsStream(userId),
    linkCommand(ctx, userId, { provider, profile, tokens }, consent),
    {
      metadata: metadataFor(origin, { type: 'user', userId }, ctx.clock()),
      claims: (events) => [
        ...releaseStale({ provider, profile, tokens }, staleOwner),
        ...linkedAccountClaims(events),
      ],
      newStream,
    },
  )

/** The flow's error code for each linking rule the decider refused by (linking-rules.ts), per way of linking. */
export type RefusalCodes = Partial<Record<string, string>>
export const IMPLICIT_REFUSALS: RefusalCodes = { ACCOUNT_NOT_LINKED: 'account_not_linked' }
const LINK_FLOW_REFUSALS: RefusalCodes = {
  LINKING_NOT_ALLOWED: 'unable_to_link_account',
  LINKING_DIFFERENT_EMAILS_NOT_ALLOWED: 'email_does_not_match',
  ACCOUNT_LINKED_TO_ANOTHER_USER: 'account_already_linked_to_different_user',
}
const ID_TOKEN_REFUSALS: RefusalCodes = { ...LINK_FLOW_REFUSALS, LINKING_NOT_ALLOWED: 'linking_not_allowed' }

export const linkAccount = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  found: Found,
  staleOwner: string | null,
  consent?: { facts: LinkConsent; refusals: RefusalCodes },
) => {
  try {
    await ctx.handle.together([linkPart(ctx, origin, userId, found, staleOwner, consent?.facts)])
  } catch (error) {
    const refusal = error instanceof DomainError ? consent?.refusals[error.code] : undefined
    if (refusal) throw new SocialFlowError(refusal)
    if (error instanceof UniqueClaimConflictError)
      throw new SocialFlowError('account_already_linked_to_different_user')
    // A user has one account per provider (domain/linked-accounts): another one of it cannot link.
    if (error instanceof DomainError && error.code === 'SOCIAL_ACCOUNT_ALREADY_LINKED')
      throw new SocialFlowError('unable_to_link_account')
    throw error
  }
}

/**
 * Attaches the provider account to the signed-in user who started a link flow. The linked-accounts
 * decider refuses (linking-rules.ts, better-auth's order): the provider must vouch and linking be
 * on, then the same address unless different ones are allowed, then the account must not be
 * another user's.
 */
export const linkToUser = (
  ctx: CommandContext,
  origin: RequestOrigin,
  link: { userId: string; email: string },
  found: Found,
): Promise<void> => attach(ctx, origin, link, found, 'link-flow')

/**
 * link-social with an id token, in better-auth's order (decided likewise): an account already
 * linked to this user only renews its tokens; one of another user is refused; then the provider
 * must vouch and linking be on, and the address match unless different ones are allowed.
 */
export const linkIdTokenAccount = (
  ctx: CommandContext,
  origin: RequestOrigin,
  link: { userId: string; email: string },
  found: Found,
): Promise<void> => attach(ctx, origin, link, found, 'id-token')

/** Links (or renews) the account for the user, with the facts the linking rules need. */
const attach = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  link: { userId: string; email: string },
  found: Found,
  how: 'link-flow' | 'id-token',
) => {
  const owner = await ownerOf(ctx, found.provider.id, found.profile.id)
  const linking = linkingOf(ctx)
  const facts: LinkConsent = {
    how,
    vouched: vouches(ctx, found),
    linkingEnabled: linking.enabled,
    sameEmail: found.profile.email?.toLowerCase() === link.email.toLowerCase(),
    allowDifferentEmails: linking.allowDifferentEmails,
    ownerUserId: owner.user?.id ?? null,
  }
  const refusals = how === 'id-token' ? ID_TOKEN_REFUSALS : LINK_FLOW_REFUSALS
  await linkAccount(ctx, origin, link.userId, found, owner.staleOwner, { facts, refusals })
  if (linking.updateUserInfoOnLink) await copyNameAndImage(ctx, origin, link.userId, found.profile)
}
