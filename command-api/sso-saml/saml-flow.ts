/// SAML sign-in through an organization's IdP, SP-initiated: `/sign-in/sso` sends the browser to the
/// IdP with an AuthnRequest whose ID is kept in the browser-bound relay state; the IdP posts its
/// answer to `/sso/saml2/sp/acs/:providerId`, where the engine checks it (signature, issuer,
/// audience, recipient, window, InResponseTo, the assertion id once) and the person is signed in as
/// through any SSO provider (complete-sso-sign-in.ts). IdP-initiated answers (no RelayState) are
/// refused: nothing would bind them to a request (a departure, listed in the README).

import { DomainError } from '../../domain/shared/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { SSO_ERRORS } from '../../domain/sso/sso-errors.js'
import type { ActiveProvider } from '../../domain/sso/sso-provider.js'
import type { SsoProviderRow } from '../../http/ports/sso-provider-lookup.js'
import type { CommandContext } from '../context.js'
import { completeSsoSignIn, SsoFlowError, type SsoSignInResult } from '../sso/complete-sso-sign-in.js'
import { loadProvider } from '../sso/load-provider.js'
import { routableOf } from '../sso/routable.js'
import type { SamlProviderConfig } from './saml-config.js'
import { newRelayState, type SamlFlowData, saveRelayState, takeRelayState } from './saml-relay-state.js'
import { readSamlResponse } from './saml-response.js'
import { spMetadata, startSamlSignIn } from './saml-sign-in.js'

/** Where the engine puts our URLs: the API's base, as the plugin's `baseURL`. */
export const samlBaseUrl = (ctx: CommandContext): string => `${ctx.config.baseUrl}${ctx.config.basePath}`

/** The engine's configuration from the stored `samlConfig`, its private keys from the provider's stream. */
export const samlConfigOf = (row: SsoProviderRow, provider: ActiveProvider | null): SamlProviderConfig => {
  const stored = JSON.parse(row.saml_config ?? '{}') as Record<string, unknown>
  const { cert, entryPoint, idpMetadata, spMetadata: sp, ...rest } = stored
  const spPrivateKey = provider?.secrets.spPrivateKey
  const privateKey = provider?.secrets.samlPrivateKey
  return {
    ...(rest as Partial<SamlProviderConfig>),
    providerId: row.provider_id,
    issuer: row.issuer,
    entryPoint: typeof entryPoint === 'string' ? entryPoint : '',
    ...(typeof cert === 'string' ? { cert } : {}),
    idpMetadata: (idpMetadata as SamlProviderConfig['idpMetadata'] | undefined) ?? {},
    ...(sp || spPrivateKey
      ? { spMetadata: { ...(sp as object), ...(spPrivateKey ? { privateKey: spPrivateKey } : {}) } }
      : {}),
    ...(privateKey ? { privateKey } : {}),
  }
}

const UNSIGNABLE = 'authnRequestsSigned is enabled but no privateKey provided in spMetadata or samlConfig'

export type SamlStartBody = {
  callbackURL: string
  errorCallbackURL?: string | undefined
  newUserCallbackURL?: string | undefined
  requestSignUp?: boolean | undefined
}

export const startSamlFlow = async (
  ctx: CommandContext,
  row: SsoProviderRow,
  provider: ActiveProvider,
  body: SamlStartBody,
) => {
  const config = samlConfigOf(row, provider)
  // samlify would sign with no key and fail deep inside: refused here in the plugin's words.
  if (config.authnRequestsSigned && !config.spMetadata?.privateKey && !config.privateKey)
    throw new DomainError('SAML_CONFIG_INVALID', 400, UNSIGNABLE)
  const relayState = newRelayState()
  const started = startSamlSignIn(config, { baseUrl: samlBaseUrl(ctx), relayState })
  const cookie = await saveRelayState(ctx, relayState, {
    providerId: row.provider_id,
    requestId: started.requestId,
    callbackURL: body.callbackURL,
    errorURL: body.errorCallbackURL || null,
    newUserURL: body.newUserCallbackURL || null,
    requestSignUp: body.requestSignUp === true,
  })
  return { url: started.url, cookie }
}

/** The SP metadata of a SAML provider, or null when there is no such provider. */
export const samlMetadataOf = async (ctx: CommandContext, providerId: string): Promise<string | null> => {
  const row = await ctx.lookups.ssoProviders.findSsoProvider(providerId)
  if (!row?.saml_config) return null
  return spMetadata(samlConfigOf(row, null), samlBaseUrl(ctx))
}

export type SamlAcsInput = {
  providerId: string
  samlResponse: string
  relayState: string | undefined
  relayCookie: string | undefined
}

/** Where the browser goes: the callbackURL signed in, or an error URL with `error`/`error_description`. */
export type SamlAcsOutcome =
  | { ok: true; location: string; signedIn: SsoSignInResult }
  | { ok: false; errorURL: string | null; error: string; description: string }

const refused = (errorURL: string | null, error: string, description: string): SamlAcsOutcome => ({
  ok: false,
  errorURL,
  error,
  description,
})

export const finishSamlFlow = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: SamlAcsInput,
): Promise<SamlAcsOutcome> => {
  const flow = input.relayState ? await takeRelayState(ctx, input.relayState, input.relayCookie) : null
  if (!flow || flow.providerId !== input.providerId)
    return refused(null, 'invalid_state', 'invalid_or_expired_relay_state')
  const errorURL = flow.errorURL ?? flow.callbackURL
  const row = await ctx.lookups.ssoProviders.findSsoProvider(input.providerId)
  const provider = row?.saml_config ? await loadProvider(ctx, input.providerId) : null
  if (!row || !provider) return refused(errorURL, 'invalid_provider', 'No SAML provider found')
  if (ctx.config.sso.domainVerification.enabled && !row.domain_verified)
    throw SSO_ERRORS.error('PROVIDER_DOMAIN_NOT_VERIFIED')
  const read = await readSamlResponse(samlConfigOf(row, provider), {
    baseUrl: samlBaseUrl(ctx),
    samlResponse: input.samlResponse,
    expectedRequestId: flow.requestId,
    now: ctx.clock(),
    skewSeconds: ctx.config.sso.saml.clockSkew / 1000,
    maxResponseBytes: ctx.config.sso.saml.maxResponseSize,
    claimAssertionId: claimPort(ctx),
  })
  if (!read.ok)
    return refused(
      errorURL,
      read.code === 'SAML_ASSERTION_REPLAYED' ? 'replay_detected' : 'invalid_saml_response',
      read.message,
    )
  return signIn(ctx, origin, row, flow, read.profile)
}

/** Without the durable claim port (a context made without it), no assertion is accepted. */
const claimPort =
  (ctx: CommandContext) =>
  (claimId: string, expiresAt: Date): Promise<boolean> =>
    ctx.samlAssertionClaims
      ? ctx.samlAssertionClaims(claimId, expiresAt, ctx.clock())
      : Promise.resolve(false)

const signIn = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  row: SsoProviderRow,
  flow: SamlFlowData,
  profile: Extract<Awaited<ReturnType<typeof readSamlResponse>>, { ok: true }>['profile'],
): Promise<SamlAcsOutcome> => {
  const forSignIn = {
    ...routableOf(row),
    organizationId: row.organization_id,
    overrideUserInfo: ctx.config.sso.defaultOverrideUserInfo,
  }
  const identity = {
    protocol: 'saml' as const,
    subject: profile.nameId,
    email: profile.email,
    // The IdP's word counts only when the mapping names an attribute for it (the plugin's rule);
    // completeSsoSignIn adds `trustEmailVerified`.
    emailVerified: profile.emailVerified === true,
    name: profile.name,
    image: null,
    tokens: null,
  }
  try {
    const signedIn = await completeSsoSignIn(ctx, origin, forSignIn, identity, {
      requestSignUp: flow.requestSignUp,
    })
    const location = signedIn.isNewUser ? (flow.newUserURL ?? flow.callbackURL) : flow.callbackURL
    return { ok: true, location, signedIn }
  } catch (error) {
    if (error instanceof SsoFlowError)
      return refused(flow.errorURL ?? flow.callbackURL, error.code, error.description ?? error.code)
    throw error
  }
}
