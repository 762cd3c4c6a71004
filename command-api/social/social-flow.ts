/// Starting a social sign-in or link (the authorization URL and the state), finishing it at the
/// callback, and signing in directly with an id token the client obtained itself.

import { AUTH_ERRORS } from '../../domain/errors.js'
import { DomainError, defineErrors } from '../../domain/shared/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { OAuthFlowError, type SocialProvider } from '../../infra/oauth/oauth-client.js'
import type { CommandContext } from '../context.js'
import { withError } from '../shared/error-redirect.js'
import { startState, takeState } from './oauth-state.js'
import { SocialFlowError } from './social-flow-error.js'
import { type Found, linkIdTokenAccount, linkToUser } from './social-linking.js'
import { callbackUrlOf, providerOf } from './social-providers.js'
import { type SignInRequest, type SocialSignInResult, signInWithProvider } from './social-sign-in.js'

export type StartInput = {
  provider: string
  callbackURL?: string | undefined
  errorCallbackURL?: string | undefined
  newUserCallbackURL?: string | undefined
  scopes?: string[] | undefined
  requestSignUp?: boolean | undefined
  loginHint?: string | undefined
}

export type StartedFlow = { url: string; cookie: { name: string; value: string } }

export const startSocialFlow = async (
  ctx: CommandContext,
  input: StartInput,
  link: { userId: string; email: string } | null,
): Promise<StartedFlow> => {
  const provider = providerOf(ctx.config, input.provider)
  // better-auth falls back to the base URL; an empty value counts as none.
  const callbackURL = input.callbackURL || ctx.config.baseUrl
  if (!callbackURL) throw AUTH_ERRORS.error('CALLBACK_URL_REQUIRED')
  const started = await startState(ctx, {
    providerId: provider.id,
    callbackURL,
    errorURL: input.errorCallbackURL || null,
    newUserURL: input.newUserCallbackURL || null,
    link,
    requestSignUp: input.requestSignUp === true,
    openId: provider.openId,
  })
  const url = await provider.authorizationUrl({
    redirectUri: callbackUrlOf(ctx.config, provider.id),
    state: started.state,
    codeVerifier: started.data.codeVerifier,
    nonce: started.data.nonce,
    scopes: input.scopes ?? [],
    ...(input.loginHint ? { loginHint: input.loginHint } : {}),
  })
  return { url: url.toString(), cookie: started.cookie }
}

export type CallbackInput = {
  providerId: string
  /** The provider's answer: the query (GET) or the form (POST, response_mode=form_post). */
  params: Record<string, string>
  stateCookie: string | undefined
}

/** Where the browser goes next, and the session to set when someone signed in. */
export type CallbackOutcome = { location: string; signedIn: SocialSignInResult | null }

export const finishSocialFlow = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: CallbackInput,
): Promise<CallbackOutcome> => {
  const defaultErrorURL = `${ctx.config.baseUrl}${ctx.config.basePath}/error`
  const fail = (code: string, errorURL: string | null, description?: string): CallbackOutcome => ({
    location: withError(errorURL ?? defaultErrorURL, code, description),
    signedIn: null,
  })
  const { params } = input
  const taken = await takeState(ctx, params.state ?? '', input.stateCookie)
  if (!taken.ok) return fail(taken.code, taken.errorURL)
  const flow = taken.data
  const errorURL = flow.errorURL
  if (params.error) return fail(params.error, errorURL, params.error_description)
  if (!params.code) return fail('no_code', errorURL)
  let provider: SocialProvider
  try {
    provider = providerOf(ctx.config, input.providerId)
  } catch {
    return fail('oauth_provider_not_found', errorURL)
  }
  if (provider.id !== flow.providerId) return fail('state_mismatch', errorURL)
  // RFC 9207: an answer that names another issuer is a mix-up attack (another provider's code sent
  // to this callback); refused before the code goes anywhere, as better-auth does.
  if (params.iss !== undefined && !provider.acceptsIssuer(params.iss))
    return fail('issuer_mismatch', errorURL)
  try {
    const callbackUrl = new URL(callbackUrlOf(ctx.config, provider.id))
    for (const [key, value] of Object.entries(params)) callbackUrl.searchParams.set(key, value)
    const { tokens, claims } = await provider.exchangeCode(callbackUrl, {
      state: params.state ?? '',
      codeVerifier: flow.codeVerifier,
      nonce: flow.nonce,
    })
    const { profile } = await provider.profile(tokens, claims)
    // Apple gives the name only beside the code, and only the first time: it names a new user.
    const found = {
      provider,
      profile: { ...profile, name: provider.callbackName(params) ?? profile.name },
      tokens,
    }
    if (flow.link) {
      await linkToUser(ctx, origin, flow.link, found)
      return { location: flow.callbackURL, signedIn: null }
    }
    const signedIn = await signInWithProvider(ctx, origin, found, {
      requestSignUp: flow.requestSignUp,
      callbackURL: flow.callbackURL,
    })
    const location = signedIn.isNewUser ? (flow.newUserURL ?? flow.callbackURL) : flow.callbackURL
    return { location, signedIn }
  } catch (error) {
    if (error instanceof OAuthFlowError) return fail(error.code, errorURL)
    if (error instanceof SocialFlowError) return fail(error.code, errorURL)
    throw error
  }
}

export type IdTokenInput = {
  token: string
  nonce?: string | undefined
  accessToken?: string | undefined
  refreshToken?: string | undefined
  expiresAt?: number | undefined
}

/** Verifies the id token against the provider, then reads its profile from the token's claims. */
const profileFromIdToken = async (provider: SocialProvider, idToken: IdTokenInput): Promise<Found> => {
  if (!provider.openId) throw AUTH_ERRORS.error('ID_TOKEN_NOT_SUPPORTED')
  let claims: Record<string, unknown>
  try {
    claims = await provider.verifyIdToken(idToken.token, idToken.nonce)
  } catch {
    throw new DomainError('INVALID_TOKEN', 401, 'Invalid token')
  }
  let profile: Awaited<ReturnType<SocialProvider['profile']>>['profile']
  try {
    ;({ profile } = await provider.profile({ accessToken: idToken.accessToken ?? null }, claims))
  } catch {
    throw AUTH_ERRORS.error('FAILED_TO_GET_USER_INFO')
  }
  if (!profile.email) throw AUTH_ERRORS.error('USER_EMAIL_NOT_FOUND')
  const tokens = {
    accessToken: idToken.accessToken ?? null,
    refreshToken: idToken.refreshToken ?? null,
    idToken: idToken.token,
    accessTokenExpiresAt: idToken.expiresAt ? new Date(idToken.expiresAt).toISOString() : null,
    refreshTokenExpiresAt: null,
    scope: null,
    tokenType: null,
  }
  return { provider, profile, tokens }
}

/**
 * A sign-in the flow refused answers as better-auth's id-token sign-in does: 401
 * `OAUTH_LINK_ERROR`, its message the reason in words ("account not linked", "signup disabled", …)
 * rather than one fixed text, as better-auth sends it.
 */
const ID_TOKEN_SIGN_IN_ERRORS = defineErrors({ OAUTH_LINK_ERROR: [401, 'account not linked'] })

export const signInWithIdToken = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  providerId: string,
  idToken: IdTokenInput,
  request: SignInRequest,
): Promise<SocialSignInResult> => {
  const found = await profileFromIdToken(providerOf(ctx.config, providerId), idToken)
  try {
    return await signInWithProvider(ctx, origin, found, request)
  } catch (error) {
    if (!(error instanceof SocialFlowError)) throw error
    const { code, status } = ID_TOKEN_SIGN_IN_ERRORS.OAUTH_LINK_ERROR
    throw new DomainError(code, status, error.code.replaceAll('_', ' '))
  }
}

const ID_TOKEN_LINK_ERRORS = {
  account_already_linked_to_different_user: 'SOCIAL_ACCOUNT_ALREADY_LINKED',
  linking_not_allowed: 'LINKING_NOT_ALLOWED',
  email_does_not_match: 'LINKING_DIFFERENT_EMAILS_NOT_ALLOWED',
} as const

export const linkWithIdToken = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  link: { userId: string; email: string },
  providerId: string,
  idToken: IdTokenInput,
): Promise<void> => {
  const found = await profileFromIdToken(providerOf(ctx.config, providerId), idToken)
  try {
    await linkIdTokenAccount(ctx, origin, link, found)
  } catch (error) {
    if (!(error instanceof SocialFlowError)) throw error
    const code = ID_TOKEN_LINK_ERRORS[error.code as keyof typeof ID_TOKEN_LINK_ERRORS]
    throw AUTH_ERRORS.error(code ?? 'LINKING_FAILED')
  }
}
