/// The organization plugin's GET routes: organizations, members, invitations, teams and custom roles
/// as better-auth 1.7 answers them, read from the organization read models.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { hasPermission } from '../../domain/organization/permissions.js'
import { DomainError } from '../../domain/shared/errors.js'
import {
  type CacheProjector,
  subscribedOrganizationCache,
} from '../../http/organization/organization-cache.js'
import {
  InvitationSchema,
  invitationJson,
  MemberWithUserSchema,
  memberWithUserJson,
  OrganizationSchema,
  organizationJson,
  RoleSchema,
  roleJson,
  TeamMemberSchema,
  TeamSchema,
  teamJson,
  teamMemberJson,
} from '../../http/presenters/organization-presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import {
  customRolesOf,
  findInvitation,
  findMember,
  findMemberWithUser,
  findOrganization,
  findOrganizationBySlug,
  findTeam,
  findTeamMember,
  listInvitations,
  listInvitationsOfEmail,
  listMembers,
  listOrganizationActivity,
  listOrganizationsOfUser,
  listRoles,
  listTeamMembers,
  listTeams,
  listTeamsOfUser,
  type MemberListing,
} from '../../projections/organizations/organizations.repository.js'
import type { OrganizationRow } from '../../projections/organizations/organizations.table.js'
import type { QueryContext } from '../context.js'
import { invitationPreviewRoutes } from './invitation-preview.routes.js'
import { organizationViewerRoutes } from './organization-viewer.routes.js'

const TAGS = ['Organization']

/** An opaque position in the feed: the last entry's place in the log. */
const encodeCursor = (position: string) => Buffer.from(position).toString('base64url')
const decodeCursor = (cursor: string | undefined): string | null => {
  if (!cursor) return null
  const position = Buffer.from(cursor, 'base64url').toString('utf8')
  if (!/^\d{20}:\d{10}$/.test(position)) throw invalidQueryCursor()
  return position
}
const invalidQueryCursor = () =>
  new DomainError('VALIDATION_ERROR', 400, 'Invalid query parameters: [query.cursor] is not a cursor')
const SIGNED_IN = [...ANY_ROUTE_ERRORS, 'UNAUTHORIZED'] as const
const Id = Type.String({ minLength: 1, maxLength: 256 })
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()])

export const organizationQueryRoutes =
  (ctx: QueryContext & { projector: CacheProjector }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession, requireSessionSaying, optionalSession } = sessionGuards(ctx)
    // The spec's and better-auth's wording for the invitation reads.
    const requireSessionForInvitations = requireSessionSaying('Not authenticated')
    // organization/list's answers per user (organization-cache.ts: any organization's event clears all).
    const lists = subscribedOrganizationCache<OrganizationRow[]>(ctx.projector, 'byUser')
    app.addHook('onClose', async () => lists.unsubscribe())
    const organizationsOf = async (userId: string) => {
      const kept = lists.cache.get(userId, 'list')
      if (kept) return kept.answer
      const generation = lists.cache.generation()
      const rows = await listOrganizationsOfUser(ctx.db, userId)
      lists.cache.set(
        userId,
        'list',
        { answer: rows, memberUserIds: null, size: rows.length + 1 },
        generation,
      )
      return rows
    }
    const teamsOn = ctx.config.organization.teams.enabled
    const rolesOn = ctx.config.organization.dynamicAccessControl.enabled
    await app.register(invitationPreviewRoutes(ctx))
    await app.register(organizationViewerRoutes(ctx))

    /** The organization a query names (by slug or id), else the session's active one. */
    const organizationIdOf = async (
      activeOrganizationId: string | null,
      query: { organizationId?: string; organizationSlug?: string } | undefined,
    ): Promise<string | null> => {
      if (query?.organizationSlug) {
        const bySlug = await findOrganizationBySlug(ctx.db, query.organizationSlug)
        if (!bySlug) throw AUTH_ERRORS.error('ORGANIZATION_NOT_FOUND')
        return bySlug.id
      }
      return query?.organizationId || activeOrganizationId
    }

    app.get(
      '/organization/list',
      {
        preHandler: requireSession,
        schema: {
          summary: 'The organizations the caller belongs to',
          tags: TAGS,
          response: { ...errorResponses(...SIGNED_IN), 200: Type.Array(OrganizationSchema) },
        },
      },
      async (request) => (await organizationsOf(authOf(request).user.id)).map(organizationJson),
    )

    app.get(
      '/organization/get-active-member',
      {
        preHandler: requireSession,
        schema: {
          summary: "The caller's membership in the active organization",
          tags: TAGS,
          response: {
            ...errorResponses(...SIGNED_IN, 'NO_ACTIVE_ORGANIZATION', 'MEMBER_NOT_FOUND'),
            200: MemberWithUserSchema,
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const organizationId = auth.session.active_organization_id
        if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
        const member = await findMemberWithUser(ctx.db, organizationId, auth.user.id)
        if (!member) throw AUTH_ERRORS.error('MEMBER_NOT_FOUND')
        return memberWithUserJson(member)
      },
    )

    app.get(
      '/organization/get-active-member-role',
      {
        preHandler: requireSession,
        schema: {
          summary: "The caller's role (or another member's) in the organization",
          tags: TAGS,
          querystring: Type.Object({
            userId: Type.Optional(Id),
            organizationId: Type.Optional(Id),
            organizationSlug: Type.Optional(Id),
          }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'ORGANIZATION_NOT_FOUND',
              'NO_ACTIVE_ORGANIZATION',
              'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
            ),
            200: Type.Object({ role: Type.String() }),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const organizationId = await organizationIdOf(auth.session.active_organization_id, request.query)
        if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
        const own = await findMember(ctx.db, organizationId, auth.user.id)
        if (!own) throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        if (!request.query.userId) return { role: own.role }
        const other = await findMember(ctx.db, organizationId, request.query.userId)
        if (!other) throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        return { role: other.role }
      },
    )

    app.get(
      '/organization/list-members',
      {
        preHandler: requireSession,
        schema: {
          summary: 'The members of an organization, with their users, paged',
          tags: TAGS,
          querystring: Type.Object({
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
            offset: Type.Optional(Type.Integer({ minimum: 0 })),
            sortBy: Type.Optional(
              Type.Union(['createdAt', 'role', 'userId', 'id'].map((v) => Type.Literal(v))),
            ),
            sortDirection: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
            filterField: Type.Optional(Type.Union(['role', 'userId', 'id'].map((v) => Type.Literal(v)))),
            filterValue: Type.Optional(Type.String({ maxLength: 256 })),
            filterOperator: Type.Optional(Type.Union(['eq', 'ne', 'contains'].map((v) => Type.Literal(v)))),
            organizationId: Type.Optional(Id),
            organizationSlug: Type.Optional(Id),
          }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'ORGANIZATION_NOT_FOUND',
              'NO_ACTIVE_ORGANIZATION',
              'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
            ),
            200: Type.Object({ members: Type.Array(MemberWithUserSchema), total: Type.Integer() }),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const query = request.query
        const organizationId = await organizationIdOf(auth.session.active_organization_id, query)
        if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
        if (!(await findMember(ctx.db, organizationId, auth.user.id)))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        const listing: MemberListing = {
          limit: query.limit,
          offset: query.offset,
          sortBy: query.sortBy as MemberListing['sortBy'],
          sortDirection: query.sortDirection,
          filter:
            query.filterField && query.filterValue !== undefined
              ? {
                  field: query.filterField as 'role' | 'userId' | 'id',
                  operator: (query.filterOperator ?? 'eq') as 'eq' | 'ne' | 'contains',
                  value: query.filterValue,
                }
              : undefined,
        }
        const { members, total } = await listMembers(ctx.db, organizationId, listing)
        return { members: members.map(memberWithUserJson), total }
      },
    )

    const verificationRequired = (emailVerified: boolean) =>
      ctx.config.organization.requireEmailVerificationOnInvitation && !emailVerified

    app.get(
      '/organization/get-invitation',
      {
        preHandler: requireSessionForInvitations,
        schema: {
          summary: 'A pending invitation addressed to the caller, with its organization and inviter',
          tags: TAGS,
          querystring: Type.Object({ id: Id }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'INVITATION_NOT_FOUND',
              'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION',
              'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION',
              'ORGANIZATION_NOT_FOUND',
              'INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION',
            ),
            200: Type.Object({
              ...InvitationSchema.properties,
              organizationName: Type.String(),
              organizationSlug: Type.String(),
              inviterEmail: Type.String(),
            }),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const invitation = await findInvitation(ctx.db, request.query.id)
        if (invitation?.status !== 'pending' || invitation.expires_at <= ctx.clock())
          throw new DomainError('INVITATION_NOT_FOUND', 400, 'Invitation not found!')
        if (invitation.email.toLowerCase() !== auth.user.email.toLowerCase())
          throw AUTH_ERRORS.error('YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION')
        if (verificationRequired(auth.user.email_verified))
          throw AUTH_ERRORS.error('EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION')
        const organization = await findOrganization(ctx.db, invitation.organization_id)
        if (!organization) throw AUTH_ERRORS.error('ORGANIZATION_NOT_FOUND')
        const inviter = await findMemberWithUser(ctx.db, invitation.organization_id, invitation.inviter_id)
        if (!inviter) throw AUTH_ERRORS.error('INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION')
        return {
          ...invitationJson(invitation),
          organizationName: organization.name,
          organizationSlug: organization.slug,
          inviterEmail: inviter.user.email,
        }
      },
    )

    app.get(
      '/organization/list-invitations',
      {
        preHandler: requireSessionForInvitations,
        schema: {
          summary: "An organization's invitations, whatever their status",
          tags: TAGS,
          querystring: Type.Object({ organizationId: Type.Optional(Id) }),
          response: {
            ...errorResponses(...SIGNED_IN, 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION'),
            200: Type.Array(InvitationSchema),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const organizationId = request.query.organizationId || auth.session.active_organization_id
        if (!organizationId) throw new DomainError('BAD_REQUEST', 400, 'Organization ID is required')
        if (!(await findMember(ctx.db, organizationId, auth.user.id)))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        return (await listInvitations(ctx.db, organizationId)).map(invitationJson)
      },
    )

    app.get(
      '/organization/list-user-invitations',
      {
        schema: {
          summary: "The pending invitations to the caller's (verified) address",
          tags: TAGS,
          // better-auth takes `email` only from server-side calls in its own process; over HTTP it refuses it.
          querystring: Type.Object({ email: Type.Optional(Type.String({ maxLength: 320 })) }),
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION'),
            200: Type.Array(Type.Object({ ...InvitationSchema.properties, organizationName: Type.String() })),
          },
        },
      },
      async (request) => {
        // better-auth's checks, in its order: the address first, signed in or not; then the session.
        if (request.query.email)
          throw new DomainError('BAD_REQUEST', 400, 'User email cannot be passed for client side API calls.')
        const auth = await optionalSession(request)
        if (!auth)
          throw new DomainError('BAD_REQUEST', 400, 'Missing session headers, or email query parameter.')
        // Anyone may type any address at sign-up: only a verified one proves the invitations are theirs.
        if (!auth.user.email_verified) throw AUTH_ERRORS.error('EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION')
        const rows = await listInvitationsOfEmail(ctx.db, auth.user.email)
        return rows
          .filter((row) => row.status === 'pending')
          .map((row) => ({ ...invitationJson(row), organizationName: row.organization_name }))
      },
    )

    app.get(
      '/organization/activity',
      {
        preHandler: requireSession,
        schema: {
          summary: "The organization's audit feed (owners and admins): who did what and when, newest first",
          tags: TAGS,
          querystring: Type.Object({
            organizationId: Type.Optional(Id),
            cursor: Type.Optional(Type.String({ maxLength: 512 })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'NO_ACTIVE_ORGANIZATION',
              'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION',
            ),
            200: Type.Object({
              entries: Type.Array(
                Type.Object({
                  id: Type.String(),
                  type: Type.String(),
                  actorUserId: Nullable(Type.String()),
                  details: Type.Record(Type.String(), Type.Unknown()),
                  at: Type.String(),
                }),
              ),
              nextCursor: Nullable(Type.String()),
            }),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const organizationId = request.query.organizationId || auth.session.active_organization_id
        if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
        const own = await findMember(ctx.db, organizationId, auth.user.id)
        if (!own) throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        // Those who may change the organization (owners and admins by default) may read its history.
        const custom = rolesOn ? await customRolesOf(ctx.db, organizationId) : {}
        if (!hasPermission(own.role, { organization: ['update'] }, custom))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION')
        const limit = request.query.limit ?? 50
        const rows = await listOrganizationActivity(
          ctx.db,
          organizationId,
          decodeCursor(request.query.cursor),
          limit + 1,
        )
        const page = rows.slice(0, limit)
        const last = page.at(-1)
        return {
          entries: page.map((row) => ({
            id: row.id,
            type: row.type,
            actorUserId: row.actor_user_id,
            details: JSON.parse(row.details) as Record<string, unknown>,
            at: row.at.toISOString(),
          })),
          nextCursor: rows.length > limit && last ? encodeCursor(last.position) : null,
        }
      },
    )

    if (teamsOn) {
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
          const organizationId = request.query.organizationId || auth.session.active_organization_id
          if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
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
          const organizationId = named || auth.session.active_organization_id
          if (target !== auth.user.id) {
            if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
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

    if (rolesOn) {
      const readableRoles = async (
        auth: ReturnType<typeof authOf>,
        organizationId: string | undefined,
        denied: 'YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE' | 'YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE',
      ) => {
        const id = organizationId || auth.session.active_organization_id
        if (!id) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
        const own = await findMember(ctx.db, id, auth.user.id)
        if (!own) throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        if (!hasPermission(own.role, { ac: ['read'] }, await customRolesOf(ctx.db, id)))
          throw AUTH_ERRORS.error(denied)
        return listRoles(ctx.db, id)
      }
      app.get(
        '/organization/list-roles',
        {
          preHandler: requireSession,
          schema: {
            summary: "An organization's custom roles",
            tags: TAGS,
            querystring: Type.Object({ organizationId: Type.Optional(Id) }),
            response: {
              ...errorResponses(
                ...SIGNED_IN,
                'NO_ACTIVE_ORGANIZATION',
                'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
                'YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE',
              ),
              200: Type.Array(RoleSchema),
            },
          },
        },
        async (request) =>
          (
            await readableRoles(
              authOf(request),
              request.query.organizationId,
              'YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE',
            )
          ).map(roleJson),
      )
      app.get(
        '/organization/get-role',
        {
          preHandler: requireSession,
          schema: {
            summary: 'One custom role, by name or id',
            tags: TAGS,
            querystring: Type.Object({
              organizationId: Type.Optional(Id),
              roleName: Type.Optional(Id),
              roleId: Type.Optional(Id),
            }),
            response: {
              ...errorResponses(
                ...SIGNED_IN,
                'NO_ACTIVE_ORGANIZATION',
                'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
                'YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE',
                'ROLE_NOT_FOUND',
              ),
              200: RoleSchema,
            },
          },
        },
        async (request) => {
          const { organizationId, roleName, roleId } = request.query
          if (!roleName && !roleId) throw AUTH_ERRORS.error('ROLE_NOT_FOUND')
          const roles = await readableRoles(
            authOf(request),
            organizationId,
            'YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE',
          )
          const role = roles.find((row) => (roleName ? row.role === roleName : row.id === roleId))
          if (!role) throw AUTH_ERRORS.error('ROLE_NOT_FOUND')
          return roleJson(role)
        },
      )
    }
  }
