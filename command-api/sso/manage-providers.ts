/// The provider routes after registration, as `@better-auth/sso` 1.7.5 has them: get-provider,
/// providers, update-provider, delete-provider, request-domain-verification, verify-domain; and
/// Tessera's set-sso-requirement. Access is the decider's rule (owners and admins of the provider's
/// organization, or an operator); reads check the same rule through the domain's `mayManage`.

import type { Static } from 'typebox'
import { fold } from '../../domain/shared/decider.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { joinDomains, parseDomains } from '../../domain/sso/sso-domains.js'
import { SSO_ERRORS } from '../../domain/sso/sso-errors.js'
import {
  mayManage,
  pendingDomains,
  type SsoProviderEvent,
  ssoProviderDecider,
  ssoProviderStream,
} from '../../domain/sso/sso-provider.js'
import type { SsoProviderRow } from '../../http/ports/sso-provider-lookup.js'
import { ALPHANUMERIC, randomToken } from '../../infra/crypto/tokens.js'
import type { TxtLookup } from '../../infra/dns/txt-lookup.js'
import type { CommandContext } from '../context.js'
import { oidcSettingsOf, refuseUnusableSaml, samlSettingsOf } from './register-provider.js'
import { managerOf, runSsoCommand, type SsoCaller } from './sso-caller.js'
import { sanitizedProviderJson } from './sso-presenter.js'
import type { UpdateBody } from './sso-schemas.js'

const VERIFICATION_LIFETIME_MS = 7 * 24 * 3600 * 1000

/** The provider's row, for a caller who may manage it. */
const accessible = async (
  ctx: CommandContext,
  caller: SsoCaller,
  providerId: string,
): Promise<SsoProviderRow> => {
  const row = await ctx.lookups.ssoProviders.findSsoProvider(providerId)
  if (!row) throw SSO_ERRORS.error('SSO_PROVIDER_NOT_FOUND')
  if (!mayManage(await managerOf(ctx, caller, row.organization_id)))
    throw SSO_ERRORS.error('NO_ACCESS_TO_SSO_PROVIDER')
  return row
}

export const getSsoProvider = async (ctx: CommandContext, caller: SsoCaller, providerId: string) =>
  sanitizedProviderJson(ctx.config, await accessible(ctx, caller, providerId))

/** The providers of every organization the user owns or administers (an operator: none by this route). */
export const listSsoProviders = async (ctx: CommandContext, caller: SsoCaller) => {
  if (caller.kind !== 'user') return { providers: [] }
  const organizations = await ctx.lookups.organizations.listOrganizationsOfUser(caller.userId)
  const managed: string[] = []
  for (const organization of organizations)
    if (mayManage(await managerOf(ctx, caller, organization.id))) managed.push(organization.id)
  const rows = await ctx.lookups.ssoProviders.listSsoProvidersOfOrganizations(managed)
  return { providers: rows.map((row) => sanitizedProviderJson(ctx.config, row)) }
}

export const updateSsoProvider = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: SsoCaller,
  body: Static<typeof UpdateBody>,
) => {
  const row = await accessible(ctx, caller, body.providerId)
  const issuer = body.issuer ?? row.issuer
  const current = row.oidc_config ? JSON.parse(row.oidc_config) : null
  const oidcConfig =
    body.oidcConfig && current
      ? await oidcSettingsOf(ctx, issuer, { ...current, ...body.oidcConfig, skipDiscovery: true }, false)
      : undefined
  const mergedSaml =
    body.samlConfig && row.saml_config ? { ...JSON.parse(row.saml_config), ...body.samlConfig } : undefined
  const saml = mergedSaml ? samlSettingsOf(mergedSaml) : undefined
  if (mergedSaml) {
    // Stored settings write an absent certificate as null; the check reads absent as undefined.
    const present = Object.fromEntries(Object.entries(mergedSaml).filter(([, value]) => value !== null))
    refuseUnusableSaml(ctx, { providerId: row.provider_id, issuer }, present as typeof mergedSaml)
  }
  const secrets = {
    ...(body.oidcConfig?.clientSecret ? { clientSecret: body.oidcConfig.clientSecret } : {}),
    ...(saml?.samlPrivateKey ? { samlPrivateKey: saml.samlPrivateKey } : {}),
    ...(saml?.spPrivateKey ? { spPrivateKey: saml.spPrivateKey } : {}),
  }
  await runSsoCommand(ctx, origin, caller, body.providerId, {
    type: 'update-sso-provider',
    ...(body.issuer ? { issuer: body.issuer } : {}),
    ...(body.domain ? { domain: joinDomains(parseDomains(body.domain)) } : {}),
    // A config for the protocol the provider lacks goes to the decider, which refuses it.
    ...(body.oidcConfig ? { oidcConfig: oidcConfig ?? (body.oidcConfig as never) } : {}),
    ...(body.samlConfig ? { samlConfig: saml?.settings ?? (body.samlConfig as never) } : {}),
    ...(Object.keys(secrets).length > 0 ? { secrets } : {}),
    manager: await managerOf(ctx, caller, row.organization_id),
    now: ctx.clock().toISOString(),
  })
  return getSsoProvider(ctx, caller, body.providerId)
}

export const deleteSsoProvider = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: SsoCaller,
  providerId: string,
) => {
  const row = await accessible(ctx, caller, providerId)
  await runSsoCommand(ctx, origin, caller, providerId, {
    type: 'delete-sso-provider',
    manager: await managerOf(ctx, caller, row.organization_id),
    now: ctx.clock().toISOString(),
  })
  return { success: true }
}

/** The DNS name the TXT record sits under: `_<prefix>-<providerId>` (the plugin's identifier). */
export const verificationIdentifier = (ctx: CommandContext, providerId: string) =>
  `_${ctx.config.sso.domainVerification.tokenPrefix}-${providerId}`

export const requestDomainVerification = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: SsoCaller,
  providerId: string,
) => {
  const row = await accessible(ctx, caller, providerId)
  const now = ctx.clock()
  const { state } = await runSsoCommand(ctx, origin, caller, providerId, {
    type: 'request-domain-verification',
    token: randomToken(24, ALPHANUMERIC),
    expiresAt: new Date(now.getTime() + VERIFICATION_LIFETIME_MS).toISOString(),
    manager: await managerOf(ctx, caller, row.organization_id),
    now: now.toISOString(),
  })
  const token = state.status === 'active' ? state.verification?.token : undefined
  if (!token) throw SSO_ERRORS.error('NO_PENDING_VERIFICATION')
  return { domainVerificationToken: token }
}

export const verifyDomain = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: SsoCaller,
  providerId: string,
  lookup: TxtLookup,
) => {
  const row = await accessible(ctx, caller, providerId)
  const identifier = verificationIdentifier(ctx, providerId)
  // Only the provider's current state says whether a lookup is worth making.
  const state = fold(
    ssoProviderDecider,
    (await ctx.store.readStream(ssoProviderStream(providerId))) as unknown as SsoProviderEvent[],
  )
  // Each domain still to prove is looked up (in turn, as the plugin does); none when nothing is pending.
  const pending = state.status === 'active' && state.verification !== null ? pendingDomains(state) : []
  const records: Record<string, string[]> = {}
  if (identifier.length <= 63)
    for (const domain of pending) records[domain] = await lookup(`${identifier}.${domain}`)
  await runSsoCommand(ctx, origin, caller, providerId, {
    type: 'verify-domain',
    records,
    identifier,
    manager: await managerOf(ctx, caller, row.organization_id),
    now: ctx.clock().toISOString(),
  })
}

export const setSsoRequirement = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: SsoCaller,
  providerId: string,
  required: boolean,
  domain: string | null,
) => {
  const row = await accessible(ctx, caller, providerId)
  await runSsoCommand(ctx, origin, caller, providerId, {
    type: 'set-sso-requirement',
    required,
    domain,
    manager: await managerOf(ctx, caller, row.organization_id),
    now: ctx.clock().toISOString(),
  })
  return getSsoProvider(ctx, caller, providerId)
}
