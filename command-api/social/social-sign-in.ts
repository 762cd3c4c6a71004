/// What a provider's answer leads to, once its profile is known: sign in the user the provider
/// account is linked to, link it to the user with the same email, or create a new user; and, in a
/// link flow, attach it to the signed-in user (social-linking.ts). The configuration decides as better-auth's options
/// do (`account.accountLinking` and the provider's `disableSignUp`, `disableImplicitSignUp`,
/// `overrideUserInfoOnSignIn`). Failures carry the codes better-auth puts in the error redirect.
///
/// A new user is made with `handle.together`: `user.registered` with the claims on the address and
/// on the provider account, and the link (`account.linked`, its own stream). On the SQL store that
/// is one transaction. KurrentDB appends the two one after another, and a process that dies between
/// them leaves a user who owns the provider account but has no link yet; the next sign-in through
/// that account finds the owner, sees the missing link and finishes the sign-up. Nobody else can
/// take the provider account meanwhile: the claim is already held.

import type { LinkConsent } from '../../domain/linked-accounts/linking-rules.js'
import { DomainError } from '../../domain/shared/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { isValidEmail, normalizeEmail } from '../../domain/user/email.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import { userStream } from '../../domain/user/user.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import { newId } from '../../infra/crypto/tokens.js'
import type { ProviderProfile } from '../../infra/oauth/oauth-client.js'
import type { CommandContext } from '../context.js'
import { grantAdminIfListed } from '../shared/admin-emails.js'
import { registerWithProviderAccount } from '../shared/register-with-provider-account.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { refuseWhenSsoRequired } from '../sso/require-sso.js'
import { linkedAccountsOf } from './linked-accounts-of.js'
import { copyNameAndImage, overrideUserInfo } from './provider-user-info.js'
import { SocialFlowError } from './social-flow-error.js'
import {
  type Found,
  IMPLICIT_REFUSALS,
  linkAccount,
  linkCommand,
  linkingOf,
  ownerOf,
  releaseStale,
  vouches,
} from './social-linking.js'

/**
 * The provider vouched for the person: the first factor passed, no session yet. The route passes it
 * through the second-step gate (`gateSignIn`), as every other first factor does.
 */
export type SocialSignInResult = { user: KnownUser; isNewUser: boolean }

const settingsOf = (ctx: CommandContext, providerId: string) => {
  const settings = ctx.config.socialProviders[providerId]
  if (!settings) throw new SocialFlowError('oauth_provider_not_found')
  return settings
}

const addressOf = (profile: ProviderProfile): string => {
  if (!profile.email || !isValidEmail(profile.email)) throw new SocialFlowError('email_not_found')
  return normalizeEmail(profile.email)
}

const isLinked = async (ctx: CommandContext, userId: string, { provider, profile }: Found) =>
  (await linkedAccountsOf(ctx, userId)).accounts.some(
    (account) => account.providerId === provider.id && account.providerAccountId === profile.id,
  )

/** better-auth verifies the local address when the provider verified the same one. */
const adoptVerification = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  user: KnownUser,
  found: Found,
) => {
  if (!found.profile.emailVerified || user.email_verified) return
  if (addressOf(found.profile) !== user.email) return
  await runUserCommand(ctx, origin, user.id, { type: 'verify-email', email: user.email })
}

const signedIn = async (
  ctx: CommandContext,
  userId: string,
  isNewUser: boolean,
): Promise<SocialSignInResult> => {
  const user = await ctx.lookups.users.byId(userId)
  if (!user) throw new SocialFlowError('unable_to_create_session')
  return { user, isNewUser }
}

export type SignInRequest = {
  /** The sign-in asked to create a user (`requestSignUp`), for a provider with implicit sign-up off. */
  requestSignUp: boolean
  /** Where the sign-in goes next: also where a verification link of a new user leads. */
  callbackURL?: string | null
}

/** Sign-in or sign-up through a provider (the callback, or an id token given directly). */
export const signInWithProvider = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  found: Found,
  request: SignInRequest,
): Promise<SocialSignInResult> => {
  const email = addressOf(found.profile)
  // An organization that requires SSO for this address's verified domain (command-api/sso).
  await refuseWhenSsoRequired(ctx, email).catch((error: unknown) => {
    throw error instanceof DomainError ? new SocialFlowError('sso_required') : error
  })
  const settings = settingsOf(ctx, found.provider.id)
  const owner = await ownerOf(ctx, found.provider.id, found.profile.id)
  if (owner.user) {
    const user = owner.user
    // Holding the claim without the link: a sign-up that stopped between its two appends.
    const unfinished = !(await isLinked(ctx, user.id, found))
    if (unfinished) await finishSignUp(ctx, origin, user.id)
    await linkAccount(ctx, origin, user.id, found, null)
    await adoptVerification(ctx, origin, user, found)
    if (settings.overrideUserInfoOnSignIn) await overrideUserInfo(ctx, origin, user, found.profile)
    return signedIn(ctx, user.id, unfinished)
  }
  const existing = await ctx.lookups.users.byEmail(email)
  if (existing) {
    const linking = linkingOf(ctx)
    const facts: LinkConsent = {
      how: 'implicit',
      vouched: vouches(ctx, found),
      linkingEnabled: linking.enabled,
      implicitLinkingDisabled: linking.disableImplicitLinking,
      requireLocalEmailVerified: linking.requireLocalEmailVerified,
      localEmailVerified: existing.email_verified,
    }
    await linkAccount(ctx, origin, existing.id, found, owner.staleOwner, {
      facts,
      refusals: IMPLICIT_REFUSALS,
    })
    await adoptVerification(ctx, origin, existing, found)
    if (linking.updateUserInfoOnLink) await copyNameAndImage(ctx, origin, existing.id, found.profile)
    if (settings.overrideUserInfoOnSignIn) await overrideUserInfo(ctx, origin, existing, found.profile)
    return signedIn(ctx, existing.id, false)
  }
  const userId = await signUp(ctx, origin, email, found, owner.staleOwner, request)
  return signedIn(ctx, userId, true)
}

/** The provider's options on making new accounts, for the linking rules to decide by. */
const signUpConsent = (ctx: CommandContext, providerId: string, request: SignInRequest): LinkConsent => {
  const settings = settingsOf(ctx, providerId)
  return {
    how: 'sign-up',
    signUpDisabled: settings.disableSignUp,
    implicitSignUpDisabled: settings.disableImplicitSignUp,
    signUpRequested: request.requestSignUp,
  }
}

/**
 * The user, with the claims on their address and on the provider account, and the link, appended
 * together; the provider's word on the address counts as verification (`emailVerified` from the
 * start). Then the admin role when ADMIN_EMAILS lists that verified address. Whether the provider
 * may make a new account at all is the linking rules' (linking-rules.ts), from its options.
 */
const signUp = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  email: string,
  found: Found,
  staleOwner: string | null,
  request: SignInRequest,
): Promise<string> => {
  const { provider, profile, tokens } = found
  const consent = signUpConsent(ctx, provider.id, request)
  const userId = newId()
  const registered = await registerWithProviderAccount(
    ctx,
    origin,
    {
      userId,
      email,
      name: profile.name || email,
      image: profile.image,
      emailVerified: profile.emailVerified,
      // As better-auth: an address the provider does not vouch for gets a verification link when
      // the deployment sends one on sign-up (the decider sends none for a verified address).
      sendVerification: ctx.config.emailVerification.sendOnSignUp,
      callbackURL: request.callbackURL ?? null,
      providerId: provider.id,
      providerAccountId: profile.id,
      releases: releaseStale(found, staleOwner),
      link: linkCommand(ctx, userId, { provider, profile, tokens }, consent),
    },
    // Someone signed up with this address, or this provider account, a moment ago.
    () => new SocialFlowError('unable_to_create_user'),
  ).catch((error: unknown) => {
    const refused = error instanceof DomainError && error.code === 'PROVIDER_SIGN_UP_DISABLED'
    throw refused ? new SocialFlowError('signup_disabled') : error
  })
  await grantAdminIfListed(ctx, origin, userId, registered)
  return userId
}

/** What a sign-up does after its first append, for one that stopped there: the admin grant. */
const finishSignUp = async (ctx: CommandContext, origin: RequestOrigin, userId: string) => {
  const [registered] = (await ctx.store.readStream(userStream(userId))) as unknown as UserEvent[]
  // The grant is once per account (the aggregate remembers), so a repeat changes nothing.
  if (registered) await grantAdminIfListed(ctx, origin, userId, [registered])
}
