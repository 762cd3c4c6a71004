/// Require-SSO at the other doors: a password or social sign-in for an address of a verified
/// domain whose organization requires SSO is refused with the SSO route to use (Tessera's; the
/// plugin has no such option). The answer depends on the domain only, never on whether the
/// account exists, so it reveals nothing about who has one.

import { refuseUnlessSsoAllows } from '../../domain/sso/sso-sign-in-policy.js'
import type { CommandContext } from '../context.js'
import { routableOf } from './routable.js'

export const refuseWhenSsoRequired = async (ctx: CommandContext, email: string): Promise<void> => {
  const domain = email.slice(email.lastIndexOf('@') + 1)
  if (!domain) return
  const providers = await ctx.lookups.ssoProviders.findSsoProvidersForDomain(domain)
  refuseUnlessSsoAllows(email, providers.map(routableOf), `${ctx.config.basePath}/sign-in/sso`)
}
