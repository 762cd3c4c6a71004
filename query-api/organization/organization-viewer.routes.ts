/// Tessera's reads for the portal's organization pages, so that a page calls only what the viewer
/// may read instead of learning it from refusals:
/// - GET /organization/viewer?organizationId=: the caller's role and what it grants there, as the
///   server decides it (built-in and custom roles, the API-key creator role), and which optional
///   parts (teams, custom roles) this deployment offers.
/// - GET /organization/team-roster?organizationId=: teams with their members. Those whose role may
///   update teams see every team; any other member sees the teams they are in. better-auth's
///   list-team-members stays as it is (only a team's own members may read it).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import {
  type ApiKeyAction,
  hasPermission,
  mayManageApiKeys,
  RESOURCES,
  type Statements,
} from '../../domain/organization/permissions.js'
import {
  TeamMemberSchema,
  TeamSchema,
  teamJson,
  teamMemberJson,
} from '../../http/presenters/organization-presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import {
  customRolesOf,
  findMember,
  listTeams,
} from '../../projections/organizations/organizations.repository.js'
import { listTeamMembersOfOrganization } from '../../projections/organizations/team-roster.repository.js'
import type { QueryContext } from '../context.js'

const TAGS = ['Organization']
const Query = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 256 }) })
const ERRORS = [...ANY_ROUTE_ERRORS, 'UNAUTHORIZED', 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION'] as const

const ViewerSchema = Type.Object({
  role: Type.String(),
  /** resource → the actions the caller's role grants (`activity: ['read']` for the history). */
  permissions: Type.Record(Type.String(), Type.Array(Type.String())),
  features: Type.Object({ teams: Type.Boolean(), customRoles: Type.Boolean() }),
})

const RosterSchema = Type.Array(
  Type.Object({ ...TeamSchema.properties, members: Type.Array(TeamMemberSchema) }),
)

/** Every action of every resource the role grants, the organization's API keys included. */
const grantsOf = (
  role: string,
  creatorRole: string,
  custom: Readonly<Record<string, Statements>>,
): Record<string, string[]> => {
  const granted: Record<string, string[]> = {}
  for (const [resource, actions] of Object.entries(RESOURCES)) {
    const held = actions.filter((action) =>
      resource === 'apiKey'
        ? mayManageApiKeys(role, action as ApiKeyAction, creatorRole, custom)
        : hasPermission(role, { [resource]: [action] }, custom),
    )
    if (held.length > 0) granted[resource] = held
  }
  // The organization's history is read by those who may change it (see /organization/activity).
  if (granted.organization?.includes('update')) granted.activity = ['read']
  return granted
}

export const organizationViewerRoutes =
  (ctx: QueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const { creatorRole, dynamicAccessControl, teams } = ctx.config.organization

    const viewerIn = async (userId: string, organizationId: string) => {
      const member = await findMember(ctx.db, organizationId, userId)
      if (!member) throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
      const custom = dynamicAccessControl.enabled ? await customRolesOf(ctx.db, organizationId) : {}
      return { role: member.role, permissions: grantsOf(member.role, creatorRole, custom) }
    }

    app.get(
      '/organization/viewer',
      {
        preHandler: requireSession,
        schema: {
          summary: "The caller's role in an organization and what it grants (Tessera only)",
          tags: TAGS,
          querystring: Query,
          response: { ...errorResponses(...ERRORS), 200: ViewerSchema },
        },
      },
      async (request) => ({
        ...(await viewerIn(authOf(request).user.id, request.query.organizationId)),
        features: { teams: teams.enabled, customRoles: dynamicAccessControl.enabled },
      }),
    )

    if (!teams.enabled) return
    app.get(
      '/organization/team-roster',
      {
        preHandler: requireSession,
        schema: {
          summary:
            'Teams with their members: all for those who may update teams, else your own (Tessera only)',
          tags: TAGS,
          querystring: Query,
          response: { ...errorResponses(...ERRORS), 200: RosterSchema },
        },
      },
      async (request) => {
        const userId = authOf(request).user.id
        const { organizationId } = request.query
        const viewer = await viewerIn(userId, organizationId)
        const [rows, memberships] = await Promise.all([
          listTeams(ctx.db, organizationId),
          listTeamMembersOfOrganization(ctx.db, organizationId),
        ])
        const everyTeam = viewer.permissions.team?.includes('update') ?? false
        return rows
          .map((row) => ({
            ...teamJson(row),
            members: memberships.filter((m) => m.team_id === row.id).map(teamMemberJson),
          }))
          .filter((team) => everyTeam || team.members.some((member) => member.userId === userId))
      },
    )
  }
