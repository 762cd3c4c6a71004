/// Who manages SSO providers: a signed-in user (their role in the provider's organization decides,
/// in the decider) or an operator holding a server key. Also the command runner for the provider's
/// stream, with the caller as the actor.

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { Actor, RequestOrigin } from '../../domain/shared/metadata.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import {
  type SsoManager,
  type SsoProviderCommand,
  ssoProviderDecider,
  ssoProviderStream,
} from '../../domain/sso/sso-provider.js'
import type { CommandContext } from '../context.js'

export type SsoCaller =
  | { kind: 'user'; userId: string; activeOrganizationId: string | null }
  | { kind: 'server'; actor: Actor }

export const actorOf = (caller: SsoCaller): Actor =>
  caller.kind === 'user' ? { type: 'user', userId: caller.userId } : caller.actor

export const organizationOf = (caller: SsoCaller, organizationId: string | undefined): string => {
  const id = organizationId ?? (caller.kind === 'user' ? caller.activeOrganizationId : null)
  if (!id) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
  return id
}

export const managerOf = async (
  ctx: CommandContext,
  caller: SsoCaller,
  organizationId: string,
): Promise<SsoManager> => {
  if (caller.kind === 'server') return { kind: 'operator' }
  const member = await ctx.lookups.organizations.findMember(organizationId, caller.userId)
  return member
    ? { kind: 'member', roles: member.role.split(',').map((role) => role.trim()) }
    : { kind: 'stranger' }
}

export const runSsoCommand = (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: SsoCaller,
  providerId: string,
  command: SsoProviderCommand,
) =>
  ctx.handle(ssoProviderDecider, ssoProviderStream(providerId), command, {
    metadata: metadataFor(origin, actorOf(caller), ctx.clock()),
  })
