/// Who is managing a client, as the client rules (domain/oauth-provider/client-authority.ts) need
/// them: an operator (a server key, or a session whose role may update users), a member of the
/// organization concerned with their role there, or a person acting for themselves. The edge only
/// finds these facts; whether they suffice is the domain's answer.

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ClientCaller } from '../../domain/oauth-provider/client-authority.js'
import type { Actor } from '../../domain/shared/metadata.js'
import { adminGuard, callerMay } from '../../http/guards/admin-caller.js'
import type { OAuthContext } from './oauth-context.js'

export type Acting = { caller: ClientCaller; actor: Actor }

export const clientActing = (ctx: OAuthContext) => {
  const admins = adminGuard(ctx)

  /** The caller regarding `organizationId` (null: their own clients, or every one for an operator). */
  const actingFor = async (
    request: FastifyRequest,
    reply: FastifyReply,
    organizationId: string | null,
  ): Promise<Acting> => {
    const caller = await admins.callerOf(request, reply)
    const { actor } = caller
    if (callerMay(caller, { user: ['update'] })) return { caller: { kind: 'operator' }, actor }
    const userId = caller.userId ?? ''
    const member =
      organizationId === null ? undefined : await ctx.lookups.organizations.findMember(organizationId, userId)
    if (!member || organizationId === null) return { caller: { kind: 'owner', userId }, actor }
    const customRoles = ctx.config.organization.dynamicAccessControl.enabled
      ? await ctx.lookups.organizations.customRolesOf(organizationId)
      : {}
    return { caller: { kind: 'member', userId, organizationId, role: member.role, customRoles }, actor }
  }
  return { actingFor }
}
