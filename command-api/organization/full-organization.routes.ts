/// GET /organization/get-full-organization. It lives on the command side although it reads, because
/// it may write: asked about the session's active organization by someone who is no longer a member
/// of it (a set-active or an accept that raced the removal, and was appended after it), it clears the
/// session's active organization before refusing, as better-auth does, so the stale id does not
/// linger in get-session. Answers are kept in memory while this process projects
/// (http/organization/organization-cache.ts), and a member's later requests are served from there.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { type Static, Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import {
  type CacheProjector,
  subscribedOrganizationCache,
} from '../../http/organization/organization-cache.js'
import type { OrganizationRow } from '../../http/ports/organization-lookup.js'
import {
  CountedTeamSchema,
  countedTeamJson,
  InvitationSchema,
  invitationJson,
  MemberWithUserSchema,
  memberWithUserJson,
  OrganizationSchema,
  organizationJson,
} from '../../http/presenters/organization-presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import { setSessionContext } from './organization-command.js'

const Id = Type.String({ minLength: 1, maxLength: 256 })

const FullOrganizationSchema = Type.Object({
  ...OrganizationSchema.properties,
  members: Type.Array(MemberWithUserSchema),
  invitations: Type.Array(InvitationSchema),
  teams: Type.Optional(Type.Array(CountedTeamSchema)),
})

type FullOrganization = Static<typeof FullOrganizationSchema>

type Query = { organizationId?: string; organizationSlug?: string; membersLimit?: number }

/** The organization asked for (slug, id, else the active one), checked for the caller's membership. */
const memberOrganization = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  query: Query,
) => {
  const fromSession = !query.organizationSlug && !query.organizationId
  const organization = query.organizationSlug
    ? await ctx.lookups.organizations.findOrganizationBySlug(query.organizationSlug)
    : await ctx.lookups.organizations.findOrganization(
        query.organizationId || (auth.session.active_organization_id as string),
      )
  if (!organization) {
    // A deleted organization that was the session's own is cleared too (better-auth leaves it).
    if (fromSession) await setSessionContext(ctx, origin, auth, null, null)
    throw AUTH_ERRORS.error('ORGANIZATION_NOT_FOUND')
  }
  if (await ctx.lookups.organizations.findMember(organization.id, auth.user.id)) return organization
  // better-auth clears the active organization of whoever asks about one they are not a member of:
  // the session's decider records that, and its refusal is thrown.
  await setSessionContext(ctx, origin, auth, organization.id, null, { organization: false })
  throw new Error('unreachable: the session decider refuses a non-member')
}

export const fullOrganizationRoutes =
  (ctx: CommandContext & { projector: CacheProjector }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const teamsOn = ctx.config.organization.teams.enabled
    const { cache, unsubscribe } = subscribedOrganizationCache<Buffer>(ctx.projector)
    app.addHook('onClose', async () => unsubscribe())

    /**
     * The answer for an organization the caller was found a member of, serialized once by the route's
     * own serializer (a hundred members are some 25 kB of JSON) and kept when nothing changed meanwhile.
     */
    const build = async (
      organization: OrganizationRow,
      limit: number,
      generation: number,
      serialize: (answer: FullOrganization) => Buffer,
    ) => {
      const [{ members, complete }, invitations, teams] = await Promise.all([
        ctx.lookups.organizations.listFirstMembers(organization.id, limit),
        ctx.lookups.organizations.listInvitations(organization.id),
        teamsOn
          ? ctx.lookups.organizations.listTeamsWithMemberCounts(organization.id)
          : Promise.resolve(null),
      ])
      const answer: FullOrganization = {
        ...organizationJson(organization),
        members: members.map(memberWithUserJson),
        invitations: invitations.map(invitationJson),
        ...(teams ? { teams: teams.map(countedTeamJson) } : {}),
      }
      const body = serialize(answer)
      const memberUserIds = complete ? new Set(members.map((member) => member.user_id)) : null
      cache.set(organization.id, limit, { answer: body, memberUserIds, size: members.length }, generation)
      return body
    }

    /** A kept answer, when the caller is one of its members (else the full path decides). */
    const kept = async (organizationId: string, limit: number, userId: string) => {
      const entry = cache.get(organizationId, limit)
      if (!entry) return null
      if (entry.memberUserIds) return entry.memberUserIds.has(userId) ? entry.answer : null
      return (await ctx.lookups.organizations.findMember(organizationId, userId)) ? entry.answer : null
    }

    app.get(
      '/organization/get-full-organization',
      {
        preHandler: requireSession,
        schema: {
          summary: 'An organization with its members, invitations and teams (null without one)',
          tags: ['Organization'],
          querystring: Type.Object({
            organizationId: Type.Optional(Id),
            organizationSlug: Type.Optional(Id),
            membersLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
          }),
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED', 'ORGANIZATION_NOT_FOUND', [
              'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
              403,
            ]),
            200: Type.Union([FullOrganizationSchema, Type.Null()]),
          },
        },
      },
      async (request, reply) => {
        const auth = authOf(request)
        const query = request.query
        if (!query.organizationSlug && !query.organizationId && !auth.session.active_organization_id)
          return null
        const limit = query.membersLimit ?? ctx.config.organization.membershipLimit
        const byId = query.organizationSlug
          ? null
          : query.organizationId || auth.session.active_organization_id
        const hit = byId && (await kept(byId, limit, auth.user.id))
        const generation = cache.generation()
        const body =
          hit ||
          (await build(
            await memberOrganization(ctx, originOf(request), auth, query),
            limit,
            generation,
            (answer) => {
              const serialized = reply.serialize(answer)
              return typeof serialized === 'string'
                ? Buffer.from(serialized)
                : Buffer.from(new Uint8Array(serialized))
            },
          ))
        // Already serialized: Fastify sends a Buffer as it is, under the type it would have set.
        // (The plain reply type: the route's typed one accepts only the unserialized answer.)
        return (reply as FastifyReply).type('application/json; charset=utf-8').send(body)
      },
    )
  }
