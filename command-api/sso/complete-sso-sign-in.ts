/// What a verified answer of an organization's identity provider leads to, whatever the protocol
/// (the OIDC callback here, the SAML assertion consumer service later): sign in the person the
/// provider account is linked to, link it to the account with the same address when the provider is
/// trusted for it, or provision a new person just in time; then the membership of the provider's
/// organization with the configured default role, and a session that records the provider (`amr`).

import {
  linkedAccountClaims,
  linkedAccountsDecider,
  linkedAccountsStream,
  PROVIDER_ACCOUNT_CLAIM_SCOPE,
  providerAccountKey,
} from '../../domain/linked-accounts/linked-accounts.js'
import { DomainError } from '../../domain/shared/errors.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { isTrustedFor, type RoutableProvider } from '../../domain/sso/sso-sign-in-policy.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import type { KnownUser as UserRow } from '../../http/ports/user-lookup.js'
import { newId } from '../../infra/crypto/tokens.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { ExchangedTokens } from '../../infra/oauth/oauth-client.js'
import type { CommandContext } from '../context.js'
import { addMember } from '../organization/organizations.js'
import { type StartedSession, startSession } from '../sessions/start-session.js'
import { handlePart } from '../shared/handle.js'
import { type LinkAccount, registerWithProviderAccount } from '../shared/register-with-provider-account.js'
import { overrideUserInfo } from '../social/provider-user-info.js'
import { storedTokens } from '../social/social-linking.js'

/** A flow that ends on the error URL with `?error=<code>`. */
export class SsoFlowError extends Error {
  override readonly name = 'SsoFlowError'
  constructor(
    readonly code: string,
    readonly description?: string,
  ) {
    super(code)
  }
}

/** The person as the identity provider vouched for them, after the protocol's own checks. */
export type SsoIdentity = {
  protocol: 'oidc' | 'saml'
  /** The IdP's stable id for the person (OIDC `sub`, SAML NameID). */
  subject: string
  email: string
  emailVerified: boolean
  name: string
  image: string | null
  /** OIDC tokens, kept on the linked account; null for SAML. */
  tokens: ExchangedTokens | null
}

export type SsoProviderForSignIn = RoutableProvider & { organizationId: string; overrideUserInfo: boolean }

export type SsoSignInResult = { session: StartedSession; user: UserRow; isNewUser: boolean }

const NO_TOKENS: ExchangedTokens = {
  accessToken: null,
  refreshToken: null,
  idToken: null,
  accessTokenExpiresAt: null,
  refreshTokenExpiresAt: null,
  scope: null,
  tokenType: null,
}

const linkCommand = (
  ctx: CommandContext,
  userId: string,
  provider: SsoProviderForSignIn,
  identity: SsoIdentity,
): LinkAccount => ({
  type: 'link-account',
  userId,
  accountId: newId(),
  providerId: provider.providerId,
  providerAccountId: identity.subject,
  email: identity.email,
  tokens: storedTokens(identity.tokens ?? NO_TOKENS),
  now: ctx.clock().toISOString(),
})

const linkPart = (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  provider: SsoProviderForSignIn,
  identity: SsoIdentity,
  newStream = false,
) =>
  handlePart(
    linkedAccountsDecider,
    linkedAccountsStream(userId),
    linkCommand(ctx, userId, provider, identity),
    {
      metadata: metadataFor(origin, { type: 'user', userId }, ctx.clock()),
      claims: linkedAccountClaims,
      newStream,
    },
  )

const link = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  provider: SsoProviderForSignIn,
  identity: SsoIdentity,
) => {
  try {
    await ctx.handle.together([linkPart(ctx, origin, userId, provider, identity)])
  } catch (error) {
    if (error instanceof UniqueClaimConflictError)
      throw new SsoFlowError('account_already_linked_to_different_user')
    if (error instanceof DomainError) throw new SsoFlowError('unable_to_link_account')
    throw error
  }
}

const signUp = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  provider: SsoProviderForSignIn,
  identity: SsoIdentity,
  emailVerified: boolean,
): Promise<string> => {
  const userId = newId()
  await registerWithProviderAccount(
    ctx,
    origin,
    {
      userId,
      email: identity.email,
      name: identity.name || identity.email,
      image: identity.image,
      emailVerified,
      sendVerification: false,
      callbackURL: null,
      providerId: provider.providerId,
      providerAccountId: identity.subject,
      link: linkCommand(ctx, userId, provider, identity),
    },
    () => new SsoFlowError('unable_to_create_user'),
  )
  return userId
}

/** The membership of the provider's organization, once, with the configured role (the plugin's). */
const provisionMembership = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  provider: SsoProviderForSignIn,
  userId: string,
) => {
  const options = ctx.config.sso.organizationProvisioning
  if (options.disabled || (await ctx.lookups.organizations.findMember(provider.organizationId, userId)))
    return
  try {
    await addMember(
      ctx,
      origin,
      { kind: 'server', actor: { type: 'system' } },
      {
        userId,
        role: options.defaultRole,
        organizationId: provider.organizationId,
      },
    )
  } catch (error) {
    if (error instanceof DomainError) throw new SsoFlowError('unable_to_assign_organization', error.code)
    throw error
  }
}

/**
 * Signs the person in through `provider` (the function the SAML assertion consumer service calls
 * too, with `protocol: 'saml'`). Throws `SsoFlowError` with the code the error redirect carries.
 */
export const completeSsoSignIn = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  provider: SsoProviderForSignIn,
  identity: SsoIdentity,
  request: { requestSignUp: boolean },
): Promise<SsoSignInResult> => {
  if (!identity.subject || !isValidEmail(identity.email))
    throw new SsoFlowError('invalid_provider', 'missing_user_info')
  const email = normalizeEmail(identity.email)
  const person = { ...identity, email }
  const trusted = isTrustedFor(provider, email)
  const emailVerified = identity.emailVerified && (trusted || ctx.config.sso.trustEmailVerified)
  const ownerId = await ctx.store.claimOwner(
    PROVIDER_ACCOUNT_CLAIM_SCOPE,
    providerAccountKey(provider.providerId, identity.subject),
  )
  const owner = ownerId ? await ctx.lookups.users.byId(ownerId) : null
  let userId: string
  let isNewUser = false
  if (owner) {
    userId = owner.id
    await link(ctx, origin, userId, provider, person)
    // Later sign-ins keep the person as their organization's directory has them.
    if (trusted || provider.overrideUserInfo) await refreshProfile(ctx, origin, owner, person, emailVerified)
  } else {
    const existing = await ctx.lookups.users.byEmail(email)
    if (existing) {
      if (!trusted) throw new SsoFlowError('account_not_linked')
      userId = existing.id
      await link(ctx, origin, userId, provider, person)
    } else {
      if (ctx.config.sso.disableImplicitSignUp && !request.requestSignUp)
        throw new SsoFlowError('signup_disabled')
      userId = await signUp(ctx, origin, provider, person, emailVerified)
      isNewUser = true
    }
  }
  await provisionMembership(ctx, origin, provider, userId)
  const session = await startSession(ctx, origin, {
    userId,
    rememberMe: true,
    amr: ['sso', `sso:${provider.providerId}`],
  })
  const user = await ctx.lookups.users.byId(userId)
  if (!user) throw new SsoFlowError('unable_to_create_session')
  return { session, user, isNewUser }
}

const refreshProfile = (
  ctx: CommandContext,
  origin: RequestOrigin,
  user: UserRow,
  identity: SsoIdentity,
  emailVerified: boolean,
) =>
  overrideUserInfo(ctx, origin, user, {
    id: identity.subject,
    email: identity.email,
    emailVerified,
    name: identity.name,
    image: identity.image,
  })
