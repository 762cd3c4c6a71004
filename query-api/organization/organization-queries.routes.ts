/// The organization plugin's GET routes: organizations, members, invitations, teams and custom roles
/// as better-auth 1.7 answers them, read from the organization read models, one file per resource
/// in routes/ (teams and roles only when enabled); and the invitation preview and viewer routes.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { invitationPreviewRoutes } from './invitation-preview.routes.js'
import { organizationViewerRoutes } from './organization-viewer.routes.js'
import { invitationsQueryRoutes } from './routes/invitations.routes.js'
import { membersQueryRoutes } from './routes/members.routes.js'
import { organizationsQueryRoutes } from './routes/organizations.routes.js'
import { rolesQueryRoutes } from './routes/roles.routes.js'
import type { OrganizationQueryContext } from './routes/route-context.js'
import { teamsQueryRoutes } from './routes/teams.routes.js'

export const organizationQueryRoutes =
  (ctx: OrganizationQueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(invitationPreviewRoutes(ctx))
    await app.register(organizationViewerRoutes(ctx))
    await app.register(organizationsQueryRoutes(ctx))
    await app.register(membersQueryRoutes(ctx))
    await app.register(invitationsQueryRoutes(ctx))
    if (ctx.config.organization.teams.enabled) await app.register(teamsQueryRoutes(ctx))
    if (ctx.config.organization.dynamicAccessControl.enabled) await app.register(rolesQueryRoutes(ctx))
  }
