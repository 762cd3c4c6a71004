/// Organizations themselves on better-auth 1.7's organization plugin wire: create, check-slug,
/// update, delete, set-active and has-permission.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS, errorWithStatus } from '../../../domain/errors.js'
import { hasPermission } from '../../../domain/organization/permissions.js'
import { organizationIdOr } from '../../../http/organization/active-organization.js'
import {
  Id,
  Logo,
  Metadata,
  Name,
  Nullable,
  Permissions,
  Slug,
  Strict,
  TAGS,
} from '../../../http/organization/schemas.js'
import {
  MemberSchema,
  memberJson,
  OrganizationSchema,
  organizationJson,
  WrittenOrganizationSchema,
  writtenOrganizationJson,
} from '../../../http/presenters/organization-presenters.js'
import { callerOfRequest } from '../../../http/sessions/caller.js'
import { authOf, sessionGuards } from '../../../http/sessions/require-session.js'
import { errorResponses, SIGNED_IN_POST_ERRORS } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import type { KeptMembers } from '../kept-members.js'
import {
  createOrganization,
  deleteOrganization,
  setActiveOrganization,
  updateOrganization,
} from '../organizations.js'
import type { OrganizationRoutesContext } from './route-context.js'

export const organizationsRoutes =
  (ctx: OrganizationRoutesContext, members: KeptMembers): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const rolesOn = ctx.config.organization.dynamicAccessControl.enabled

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
        if (await ctx.lookups.organizations.findOrganizationBySlug(request.body.slug))
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
        const caller = callerOfRequest(request)
        const organizationId = organizationIdOr(caller, request.body.organizationId)
        const member = await members.find(organizationId, caller.userId)
        if (!member) throw errorWithStatus('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION', 401)
        const custom = rolesOn ? await ctx.lookups.organizations.customRolesOf(organizationId) : {}
        const asked = request.body.permissions ?? request.body.permission
        return { error: null, success: hasPermission(member.role, asked, custom) }
      },
    )
  }
