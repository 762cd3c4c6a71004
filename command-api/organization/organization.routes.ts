/// The organization plugin's POST routes (better-auth 1.7's paths, bodies, answers and refusals):
/// organizations, members, invitations, teams, custom roles, check-slug and has-permission; and
/// add-member, server-only in better-auth, here on the server API (a server key, never a session).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS, errorWithStatus } from '../../domain/errors.js'
import { hasPermission } from '../../domain/organization/permissions.js'
import {
  SERVER_API_ERRORS,
  SERVER_API_SECURITY,
  type ServerKeyGuards,
  serverActor,
  serverCallerOf,
} from '../../http/guards/server-key.js'
import type { CacheProjector } from '../../http/organization/organization-cache.js'
import {
  InvitationSchema,
  invitationJson,
  MemberSchema,
  MemberWithUserSchema,
  memberJson,
  memberWithUserJson,
  OrganizationSchema,
  organizationJson,
  RoleSchema,
  roleJson,
  TeamMemberSchema,
  TeamSchema,
  teamJson,
  teamMemberJson,
  WrittenOrganizationSchema,
  writtenOrganizationJson,
} from '../../http/presenters/organization-presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { FREE_FORM } from '../../infra/http/free-form-json.js'
import { errorResponses, SIGNED_IN_POST_ERRORS } from '../../infra/http/openapi.js'
import { limitInviter, limitRecipient } from '../../infra/http/rate-limit.js'
import { originOf } from '../../infra/http/request-metadata.js'
import {
  customRolesOf,
  findOrganizationBySlug,
} from '../../projections/organizations/organizations.repository.js'
import type { CommandContext } from '../context.js'
import { fullOrganizationRoutes } from './full-organization.routes.js'
import { acceptInvitation, cancelInvitation, inviteMember, rejectInvitation } from './invitations.js'
import { keptMembers } from './kept-members.js'
import { userCaller } from './organization-command.js'
import {
  addMember,
  createOrganization,
  deleteOrganization,
  leaveOrganization,
  removeMember,
  setActiveOrganization,
  updateMemberRole,
  updateOrganization,
} from './organizations.js'
import { createRole, deleteRole, updateRole } from './roles.js'
import {
  addTeamMember,
  createTeam,
  removeTeam,
  removeTeamMember,
  setActiveTeam,
  updateTeam,
} from './teams.js'

const TAGS = ['Organization']
const Id = Type.String({ minLength: 1, maxLength: 256 })
const Name = Type.String({ minLength: 1, maxLength: 256 })
const Slug = Type.String({ minLength: 1, maxLength: 256 })
const Logo = Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])
const Metadata = Type.Record(Type.String(), Type.Unknown(), FREE_FORM)
const Role = Type.Union([
  Type.String({ maxLength: 256 }),
  Type.Array(Type.String({ maxLength: 256 }), { maxItems: 16 }),
])
const Permissions = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: 32 }),
)
const Strict = { additionalProperties: false } as const
const Message = Type.Object({ message: Type.String() })
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()])

export const organizationRoutes =
  (
    ctx: CommandContext & { serverApi: ServerKeyGuards; projector: CacheProjector },
  ): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const teamsOn = ctx.config.organization.teams.enabled
    const rolesOn = ctx.config.organization.dynamicAccessControl.enabled
    await app.register(fullOrganizationRoutes(ctx))
    const members = keptMembers(ctx.db, ctx.projector)
    app.addHook('onClose', async () => members.stop())

    app.post(
      '/organization/create',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Create an organization (the caller becomes its owner)',
          tags: TAGS,
          body: Type.Object(
            {
              name: Name,
              slug: Slug,
              logo: Type.Optional(Logo),
              metadata: Type.Optional(Metadata),
              keepCurrentActiveOrganization: Type.Optional(Type.Boolean()),
            },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION',
              'YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS',
              'ORGANIZATION_ALREADY_EXISTS',
            ),
            200: Type.Object({ ...WrittenOrganizationSchema.properties, members: Type.Array(MemberSchema) }),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const { name, slug, logo, metadata, keepCurrentActiveOrganization } = request.body
        const { organization, member } = await createOrganization(
          ctx,
          originOf(request),
          { userId: auth.user.id, session: auth, system: false },
          {
            name,
            slug,
            logo: logo ?? null,
            metadata: metadata ?? null,
            keepCurrentActiveOrganization: keepCurrentActiveOrganization === true,
          },
        )
        return { ...writtenOrganizationJson(organization), members: [memberJson(member)] }
      },
    )

    app.post(
      '/organization/check-slug',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Whether an organization slug is still free',
          tags: TAGS,
          body: Type.Object({ slug: Type.String({ maxLength: 256 }) }, Strict),
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, 'ORGANIZATION_SLUG_ALREADY_TAKEN'),
            200: Type.Object({ status: Type.Boolean() }),
          },
        },
      },
      async (request) => {
        if (await findOrganizationBySlug(ctx.db, request.body.slug))
          throw AUTH_ERRORS.error('ORGANIZATION_SLUG_ALREADY_TAKEN')
        return { status: true }
      },
    )

    app.post(
      '/organization/update',
      {
        preHandler: requireSession,
        schema: {
          summary: "Update an organization's name, slug, logo or metadata",
          tags: TAGS,
          body: Type.Object(
            {
              data: Type.Object(
                {
                  name: Type.Optional(Name),
                  slug: Type.Optional(Slug),
                  logo: Type.Optional(Logo),
                  metadata: Type.Optional(Metadata),
                },
                Strict,
              ),
              organizationId: Type.Optional(Id),
            },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'ORGANIZATION_NOT_FOUND',
              'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION',
              'ORGANIZATION_SLUG_ALREADY_TAKEN',
            ),
            200: WrittenOrganizationSchema,
          },
        },
      },
      async (request) =>
        writtenOrganizationJson(
          await updateOrganization(ctx, originOf(request), authOf(request), request.body),
        ),
    )

    app.post(
      '/organization/delete',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Delete an organization (owners); its members, teams and invitations go with it',
          tags: TAGS,
          body: Type.Object({ organizationId: Id }, Strict),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION',
            ),
            200: OrganizationSchema,
          },
        },
      },
      async (request) =>
        organizationJson(
          await deleteOrganization(ctx, originOf(request), authOf(request), request.body.organizationId),
        ),
    )

    app.post(
      '/organization/set-active',
      {
        preHandler: requireSession,
        schema: {
          summary: "Set (or clear, with null) the session's active organization",
          tags: TAGS,
          body: Type.Object(
            { organizationId: Type.Optional(Nullable(Id)), organizationSlug: Type.Optional(Slug) },
            Strict,
          ),
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, 'ORGANIZATION_NOT_FOUND', [
              'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
              403,
            ]),
            200: Nullable(OrganizationSchema),
          },
        },
      },
      async (request) => {
        const organization = await setActiveOrganization(
          ctx,
          originOf(request),
          authOf(request),
          request.body,
        )
        return organization && organizationJson(organization)
      },
    )

    app.post(
      '/organization/leave',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Leave an organization (the only owner cannot)',
          tags: TAGS,
          body: Type.Object({ organizationId: Id }, Strict),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'MEMBER_NOT_FOUND',
              'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
            ),
            200: MemberWithUserSchema,
          },
        },
      },
      async (request) =>
        memberWithUserJson(
          await leaveOrganization(ctx, originOf(request), authOf(request), request.body.organizationId),
        ),
    )

    app.post(
      '/organization/remove-member',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Remove a member, by member id or email',
          tags: TAGS,
          body: Type.Object(
            {
              memberIdOrEmail: Type.String({ minLength: 1, maxLength: 320 }),
              organizationId: Type.Optional(Id),
            },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'MEMBER_NOT_FOUND',
              'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
              'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER',
            ),
            // With `user` when the member was named by email, as better-auth's lookup by email has it.
            200: Type.Object({ member: Type.Union([MemberWithUserSchema, MemberSchema]) }),
          },
        },
      },
      async (request) => {
        const removed = await removeMember(ctx, originOf(request), userCaller(authOf(request)), request.body)
        return { member: 'user' in removed ? memberWithUserJson(removed) : memberJson(removed) }
      },
    )

    app.post(
      '/organization/update-member-role',
      {
        preHandler: requireSession,
        schema: {
          summary: "Change a member's role (only an owner touches an owner)",
          tags: TAGS,
          body: Type.Object({ role: Role, memberId: Id, organizationId: Type.Optional(Id) }, Strict),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'MEMBER_NOT_FOUND',
              'ROLE_NOT_FOUND',
              'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER',
              'YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER',
            ),
            200: MemberSchema,
          },
        },
      },
      async (request) =>
        memberJson(await updateMemberRole(ctx, originOf(request), userCaller(authOf(request)), request.body)),
    )

    app.post(
      '/organization/add-member',
      {
        onRequest: ctx.serverApi.requireServerKey,
        schema: {
          summary: 'Add a user to an organization without an invitation (server API)',
          description:
            "better-auth's server-only `addMember`: the user joins with the role (and team) given, recorded as done by `server:<name>`. Refused to browser sessions. The membership limit applies; the per-user organization limit does not (as better-auth), though the membership counts against the user's later creates.",
          tags: TAGS,
          security: SERVER_API_SECURITY,
          body: Type.Object(
            { userId: Id, role: Role, organizationId: Type.Optional(Id), teamId: Type.Optional(Id) },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...SERVER_API_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'TEAMS_NOT_ENABLED',
              ['USER_NOT_FOUND', 400],
              'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION',
              'TEAM_NOT_FOUND',
              'ORGANIZATION_NOT_FOUND',
              'ROLE_NOT_FOUND',
              'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED',
              'TEAM_MEMBER_LIMIT_REACHED',
            ),
            200: MemberSchema,
          },
        },
      },
      async (request) => {
        const actor = serverActor(serverCallerOf(request))
        return memberJson(await addMember(ctx, originOf(request), { kind: 'server', actor }, request.body))
      },
    )

    app.post(
      '/organization/has-permission',
      {
        preHandler: requireSession,
        schema: {
          summary: "Whether the caller's role in the organization grants the permissions asked",
          tags: TAGS,
          body: Type.Object(
            {
              organizationId: Type.Optional(Id),
              permissions: Type.Optional(Permissions),
              permission: Type.Optional(Permissions),
            },
            Strict,
          ),
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, 'NO_ACTIVE_ORGANIZATION', [
              'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
              401,
            ]),
            200: Type.Object({ error: Type.Null(), success: Type.Boolean() }),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const organizationId = request.body.organizationId || auth.session.active_organization_id
        if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
        const member = await members.find(organizationId, auth.user.id)
        if (!member) throw errorWithStatus('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION', 401)
        const custom = rolesOn ? await customRolesOf(ctx.db, organizationId) : {}
        const asked = request.body.permissions ?? request.body.permission
        return { error: null, success: hasPermission(member.role, asked, custom) }
      },
    )

    // Invitations

    app.post(
      '/organization/invite-member',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Invite someone by email, with a role (and teams); mails them a link',
          tags: TAGS,
          body: Type.Object(
            {
              email: Type.String({ maxLength: 320 }),
              role: Role,
              organizationId: Type.Optional(Id),
              resend: Type.Optional(Type.Boolean()),
              teamId: Type.Optional(Type.Union([Id, Type.Array(Id, { maxItems: 16 })])),
            },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'ORGANIZATION_NOT_FOUND',
              'INVALID_EMAIL',
              'MEMBER_NOT_FOUND',
              'ROLE_NOT_FOUND',
              'YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE',
              'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION',
              'USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION',
              'INVITATION_LIMIT_REACHED',
              'TEAM_NOT_FOUND',
              'TEAM_MEMBER_LIMIT_REACHED',
            ),
            200: InvitationSchema,
          },
        },
      },
      async (request, reply) => {
        // The invitation is mailed: nobody may mail-bomb an address through invitations either.
        await limitRecipient(reply, request.body.email)
        // And nobody may send invitation mails by the thousand to strangers (rate-limit.ts).
        await limitInviter(reply, authOf(request).user.id)
        return invitationJson(
          await inviteMember(ctx, originOf(request), userCaller(authOf(request)), request.body),
        )
      },
    )

    const InvitationIdBody = Type.Object({ invitationId: Id }, Strict)
    const RECIPIENT_ERRORS = [
      'INVITATION_NOT_FOUND',
      'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION',
      'EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION',
    ] as const

    app.post(
      '/organization/accept-invitation',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Accept an invitation: become a member, and make the organization active',
          tags: TAGS,
          body: InvitationIdBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              ...RECIPIENT_ERRORS,
              'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED',
              'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION',
            ),
            200: Type.Object({ invitation: InvitationSchema, member: MemberSchema }),
          },
        },
      },
      async (request) => {
        const { invitation, member } = await acceptInvitation(
          ctx,
          originOf(request),
          authOf(request),
          request.body.invitationId,
        )
        return { invitation: invitationJson(invitation), member: memberJson(member) }
      },
    )

    app.post(
      '/organization/reject-invitation',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Reject an invitation',
          tags: TAGS,
          body: InvitationIdBody,
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, ...RECIPIENT_ERRORS),
            200: Type.Object({ invitation: InvitationSchema, member: Type.Null() }),
          },
        },
      },
      async (request) => ({
        invitation: invitationJson(
          await rejectInvitation(ctx, originOf(request), authOf(request), request.body.invitationId),
        ),
        member: null,
      }),
    )

    app.post(
      '/organization/cancel-invitation',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Cancel a pending invitation',
          tags: TAGS,
          body: InvitationIdBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'INVITATION_NOT_FOUND',
              'MEMBER_NOT_FOUND',
              'YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION',
            ),
            200: InvitationSchema,
          },
        },
      },
      async (request) =>
        invitationJson(
          await cancelInvitation(
            ctx,
            originOf(request),
            userCaller(authOf(request)),
            request.body.invitationId,
          ),
        ),
    )

    if (teamsOn) {
      app.post(
        '/organization/create-team',
        {
          preHandler: requireSession,
          schema: {
            summary: 'Create a team',
            tags: TAGS,
            body: Type.Object({ name: Name, organizationId: Type.Optional(Id) }, Strict),
            response: {
              ...errorResponses(
                ...SIGNED_IN_POST_ERRORS,
                'NO_ACTIVE_ORGANIZATION',
                'ORGANIZATION_NOT_FOUND',
                'YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION',
                'YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION',
                'YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS',
              ),
              200: TeamSchema,
            },
          },
        },
        async (request) =>
          teamJson(await createTeam(ctx, originOf(request), userCaller(authOf(request)), request.body)),
      )

      app.post(
        '/organization/update-team',
        {
          preHandler: requireSession,
          schema: {
            summary: 'Rename a team',
            tags: TAGS,
            body: Type.Object(
              {
                teamId: Id,
                data: Type.Object({ name: Type.Optional(Name), organizationId: Type.Optional(Id) }, Strict),
              },
              Strict,
            ),
            response: {
              ...errorResponses(
                ...SIGNED_IN_POST_ERRORS,
                'NO_ACTIVE_ORGANIZATION',
                'TEAM_NOT_FOUND',
                'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM',
              ),
              200: TeamSchema,
            },
          },
        },
        async (request) =>
          teamJson(await updateTeam(ctx, originOf(request), userCaller(authOf(request)), request.body)),
      )

      app.post(
        '/organization/remove-team',
        {
          preHandler: requireSession,
          schema: {
            summary: 'Remove a team (not the last one, nor your own active team)',
            tags: TAGS,
            body: Type.Object({ teamId: Id, organizationId: Type.Optional(Id) }, Strict),
            response: {
              ...errorResponses(
                ...SIGNED_IN_POST_ERRORS,
                'NO_ACTIVE_ORGANIZATION',
                'TEAM_NOT_FOUND',
                'UNABLE_TO_REMOVE_LAST_TEAM',
                'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM',
                'YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION',
              ),
              200: Message,
            },
          },
        },
        async (request) => {
          await removeTeam(ctx, originOf(request), userCaller(authOf(request)), request.body)
          return { message: 'Team removed successfully.' }
        },
      )

      const TeamMemberBody = Type.Object(
        { teamId: Id, userId: Id, organizationId: Type.Optional(Id) },
        Strict,
      )
      app.post(
        '/organization/add-team-member',
        {
          preHandler: requireSession,
          schema: {
            summary: 'Add a member of the organization to a team',
            tags: TAGS,
            body: TeamMemberBody,
            response: {
              ...errorResponses(
                ...SIGNED_IN_POST_ERRORS,
                'NO_ACTIVE_ORGANIZATION',
                'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
                'YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER',
                'TEAM_NOT_FOUND',
                'TEAM_MEMBER_LIMIT_REACHED',
              ),
              200: TeamMemberSchema,
            },
          },
        },
        async (request) =>
          teamMemberJson(
            await addTeamMember(ctx, originOf(request), userCaller(authOf(request)), request.body),
          ),
      )

      app.post(
        '/organization/remove-team-member',
        {
          preHandler: requireSession,
          schema: {
            summary: 'Take a member out of a team',
            tags: TAGS,
            body: TeamMemberBody,
            response: {
              ...errorResponses(
                ...SIGNED_IN_POST_ERRORS,
                'NO_ACTIVE_ORGANIZATION',
                'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
                'YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER',
                'TEAM_NOT_FOUND',
                'USER_IS_NOT_A_MEMBER_OF_THE_TEAM',
              ),
              200: Message,
            },
          },
        },
        async (request) => {
          await removeTeamMember(ctx, originOf(request), userCaller(authOf(request)), request.body)
          return { message: 'Team member removed successfully.' }
        },
      )

      app.post(
        '/organization/set-active-team',
        {
          preHandler: requireSession,
          schema: {
            summary: "Set (or clear, with null) the session's active team",
            tags: TAGS,
            body: Type.Object({ teamId: Type.Optional(Nullable(Id)) }, Strict),
            response: {
              ...errorResponses(...SIGNED_IN_POST_ERRORS, 'NO_ACTIVE_ORGANIZATION', 'TEAM_NOT_FOUND', [
                'USER_IS_NOT_A_MEMBER_OF_THE_TEAM',
                403,
              ]),
              200: Nullable(TeamSchema),
            },
          },
        },
        async (request) => {
          const team = await setActiveTeam(ctx, originOf(request), authOf(request), request.body.teamId)
          return team && teamJson(team)
        },
      )
    }

    if (rolesOn) {
      const ROLE_ERRORS = [
        ...SIGNED_IN_POST_ERRORS,
        'NO_ACTIVE_ORGANIZATION',
        'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
        'INVALID_RESOURCE',
        'ROLE_NOT_FOUND',
        'ROLE_NAME_IS_ALREADY_TAKEN',
      ] as const
      app.post(
        '/organization/create-role',
        {
          preHandler: requireSession,
          schema: {
            summary: 'Create a custom role for the organization',
            tags: TAGS,
            body: Type.Object(
              { organizationId: Type.Optional(Id), role: Name, permission: Permissions },
              Strict,
            ),
            response: {
              ...errorResponses(
                ...ROLE_ERRORS,
                ['YOU_MUST_BE_IN_AN_ORGANIZATION_TO_CREATE_A_ROLE', 400],
                'YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE',
                'TOO_MANY_ROLES',
              ),
              200: Type.Object({ success: Type.Boolean(), roleData: RoleSchema, statements: Permissions }),
            },
          },
        },
        async (request) => {
          const role = await createRole(ctx, originOf(request), authOf(request), request.body)
          return { success: true, roleData: roleJson(role), statements: request.body.permission }
        },
      )

      app.post(
        '/organization/update-role',
        {
          preHandler: requireSession,
          schema: {
            summary: 'Rename a custom role or change its permissions',
            tags: TAGS,
            body: Type.Object(
              {
                organizationId: Type.Optional(Id),
                roleName: Type.Optional(Name),
                roleId: Type.Optional(Id),
                data: Type.Object(
                  { permission: Type.Optional(Permissions), roleName: Type.Optional(Name) },
                  Strict,
                ),
              },
              Strict,
            ),
            response: {
              ...errorResponses(...ROLE_ERRORS, 'YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE'),
              200: Type.Object({ success: Type.Boolean(), roleData: RoleSchema }),
            },
          },
        },
        async (request) => {
          const { roleId, roleName, organizationId, data } = request.body
          const roleIdOrName = roleId ?? roleName
          if (!roleIdOrName) throw AUTH_ERRORS.error('ROLE_NOT_FOUND')
          const role = await updateRole(ctx, originOf(request), authOf(request), {
            organizationId,
            roleIdOrName,
            data,
          })
          return { success: true, roleData: roleJson(role) }
        },
      )

      app.post(
        '/organization/delete-role',
        {
          preHandler: requireSession,
          schema: {
            summary: 'Delete a custom role nobody holds',
            tags: TAGS,
            body: Type.Object(
              { organizationId: Type.Optional(Id), roleName: Type.Optional(Name), roleId: Type.Optional(Id) },
              Strict,
            ),
            response: {
              ...errorResponses(
                ...ROLE_ERRORS,
                'YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE',
                'CANNOT_DELETE_A_PRE_DEFINED_ROLE',
                'ROLE_IS_ASSIGNED_TO_MEMBERS',
              ),
              200: Type.Object({ success: Type.Boolean() }),
            },
          },
        },
        async (request) => {
          const { roleId, roleName, organizationId } = request.body
          const roleIdOrName = roleId ?? roleName
          if (!roleIdOrName) throw AUTH_ERRORS.error('ROLE_NOT_FOUND')
          await deleteRole(ctx, originOf(request), authOf(request), { organizationId, roleIdOrName })
          return { success: true }
        },
      )
    }
  }
