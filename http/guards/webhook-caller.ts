/// Who is calling a webhook or event-feed route, as the webhook rules need it (domain/webhook): an
/// operator (the server key, or an admin session that may update users), a member of the
/// organization named with their role, or neither. 401 when nobody stands behind the request.

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Actor } from '../../domain/shared/metadata.js'
import type { WebhookAuthority } from '../../domain/webhook/webhook.js'
import { customRolesOf, findMember } from '../../projections/organizations/organizations.repository.js'
import type { ReadModels } from '../context.js'
import { type AdminGuardContext, adminGuard, callerMay } from './admin-caller.js'

export type WebhookCaller = { authority: WebhookAuthority; actor: Actor; userId: string | null }

export const webhookCallers = (ctx: AdminGuardContext & ReadModels) => {
  const guard = adminGuard(ctx)
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    organizationId: string | null,
  ): Promise<WebhookCaller> => {
    const caller = await guard.callerOf(request, reply)
    const { actor, userId } = caller
    if (caller.kind === 'server' || callerMay(caller, { user: ['update'] }))
      return { authority: { kind: 'operator' }, actor, userId }
    const member =
      organizationId === null ? undefined : await findMember(ctx.db, organizationId, caller.userId)
    if (!member || organizationId === null) return { authority: { kind: 'none' }, actor, userId }
    const custom = ctx.config.organization.dynamicAccessControl.enabled
      ? await customRolesOf(ctx.db, organizationId)
      : {}
    return {
      authority: { kind: 'member', organizationId, role: member.role, customRoles: custom },
      actor,
      userId,
    }
  }
}
