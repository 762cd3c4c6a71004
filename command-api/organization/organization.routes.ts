/// The organization plugin's POST routes (better-auth 1.7's paths, bodies, answers and refusals),
/// one file per resource in routes/: organizations, members, invitations, teams and custom roles
/// (the last two only when enabled); and get-full-organization, which may write.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { fullOrganizationRoutes } from './full-organization.routes.js'
import { keptMembers } from './kept-members.js'
import { invitationsRoutes } from './routes/invitations.routes.js'
import { membersRoutes } from './routes/members.routes.js'
import { organizationsRoutes } from './routes/organizations.routes.js'
import { rolesRoutes } from './routes/roles.routes.js'
import type { OrganizationRoutesContext } from './routes/route-context.js'
import { teamsRoutes } from './routes/teams.routes.js'

export const organizationRoutes =
  (ctx: OrganizationRoutesContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(fullOrganizationRoutes(ctx))
    const members = keptMembers(ctx.lookups.organizations.findMember, ctx.projector)
    app.addHook('onClose', async () => members.stop())
    await app.register(organizationsRoutes(ctx, members))
    await app.register(membersRoutes(ctx))
    await app.register(invitationsRoutes(ctx))
    if (ctx.config.organization.teams.enabled) await app.register(teamsRoutes(ctx))
    if (ctx.config.organization.dynamicAccessControl.enabled) await app.register(rolesRoutes(ctx))
  }
