/// Teams as better-auth 1.7 reads them (registered only when `organization.teams.enabled`): an
/// organization's teams, a team's members, and the teams a member is in.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../../domain/errors.js'
import { hasPermission } from '../../../domain/organization/permissions.js'
import { organizationIdOr } from '../../../http/organization/active-organization.js'
import { Id, TAGS } from '../../../http/organization/schemas.js'
import {
  TeamMemberSchema,
  TeamSchema,
  teamJson,
  teamMemberJson,
} from '../../../http/presenters/organization-presenters.js'
import { callerOfRequest } from '../../../http/sessions/caller.js'
import { authOf, sessionGuards } from '../../../http/sessions/require-session.js'
import { errorResponses } from '../../../infra/http/openapi.js'
import {
  customRolesOf,
  findMember,
  findTeam,
  findTeamMember,
  listTeamMembers,
  listTeams,
  listTeamsOfUser,
} from '../../../projections/organizations/organizations.repository.js'
import { type OrganizationQueryContext, SIGNED_IN } from './route-context.js'

export const teamsQueryRoutes =
  (ctx: OrganizationQueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const rolesOn = ctx.config.organization.dynamicAccessControl.enabled

    app.get(
      '/organization/list-teams',
      {
        preHandler: requireSession,
        schema: {
          summary: "An organization's teams",
          tags: TAGS,
          querystring: Type.Object({ organizationId: Type.Optional(Id) }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'NO_ACTIVE_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION',
            ),
            200: Type.Array(TeamSchema),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const organizationId = organizationIdOr(callerOfRequest(request), request.query.organizationId)
        if (!(await findMember(ctx.db, organizationId, auth.user.id)))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION')
        return (await listTeams(ctx.db, organizationId)).map(teamJson)
      },
    )

    app.get(
      '/organization/list-team-members',
      {
        preHandler: requireSession,
        schema: {
          summary: 'The members of a team the caller is in (the active team by default)',
          tags: TAGS,
          querystring: Type.Object({ teamId: Type.Optional(Id) }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM',
              'TEAM_NOT_FOUND',
              'USER_IS_NOT_A_MEMBER_OF_THE_TEAM',
            ),
            200: Type.Array(TeamMemberSchema),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const teamId = request.query.teamId || auth.session.active_team_id
        if (!teamId) throw AUTH_ERRORS.error('YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM')
        const team = await findTeam(ctx.db, teamId)
        if (!team) throw AUTH_ERRORS.error('TEAM_NOT_FOUND')
        if (!(await findMember(ctx.db, team.organization_id, auth.user.id)))
          throw AUTH_ERRORS.error('USER_IS_NOT_A_MEMBER_OF_THE_TEAM')
        if (!(await findTeamMember(ctx.db, teamId, auth.user.id)))
          throw AUTH_ERRORS.error('USER_IS_NOT_A_MEMBER_OF_THE_TEAM')
        return (await listTeamMembers(ctx.db, teamId)).map(teamMemberJson)
      },
    )

    app.get(
      '/organization/list-user-teams',
      {
        preHandler: requireSession,
        schema: {
          summary: 'The teams the caller (or, for those who may update members, another member) is in',
          tags: TAGS,
          querystring: Type.Object({ userId: Type.Optional(Id), organizationId: Type.Optional(Id) }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'NO_ACTIVE_ORGANIZATION',
              'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER',
              'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
            ),
            200: Type.Array(TeamSchema),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const target = request.query.userId || auth.user.id
        const named = request.query.organizationId
        if (target !== auth.user.id) {
          const organizationId = organizationIdOr(callerOfRequest(request), named)
          const own = await findMember(ctx.db, organizationId, auth.user.id)
          if (!own) throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
          const custom = rolesOn ? await customRolesOf(ctx.db, organizationId) : {}
          if (!hasPermission(own.role, { member: ['update'] }, custom))
            throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER')
          if (!(await findMember(ctx.db, organizationId, target)))
            throw AUTH_ERRORS.error('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION')
          return (await listTeamsOfUser(ctx.db, target))
            .filter((team) => team.organization_id === organizationId)
            .map(teamJson)
        }
        if (named && !(await findMember(ctx.db, named, auth.user.id)))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        const teams = await listTeamsOfUser(ctx.db, target)
        return (named ? teams.filter((team) => team.organization_id === named) : teams).map(teamJson)
      },
    )
  }
