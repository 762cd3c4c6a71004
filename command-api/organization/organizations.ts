/// Organizations and their members: create, update, delete, set-active, leave, remove-member,
/// update-member-role and (server only) add-member. Each decides against the organization's stream
/// and answers from the read models, which `handle` has waited for.

import { AUTH_ERRORS, invalidBodyField } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import type { MemberRow, MemberWithUser, OrganizationRow } from '../../http/ports/organization-lookup.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { newId } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { withMembershipSeat } from './membership-seats.js'
import { decided, memberAnswer } from './organization-answers.js'
import {
  actorOf,
  actorUserIdOf,
  type Caller,
  normalizeRoles,
  runOrganizationCommand,
  setSessionContext,
  userCaller,
} from './organization-command.js'

const mustFind = async <T>(lookup: Promise<T | undefined>): Promise<T> => {
  const found = await lookup
  // `handle` waited for the read models: a missing row is a bug, not a race.
  if (found === undefined) throw AUTH_ERRORS.error('INTERNAL_SERVER_ERROR')
  return found
}

export type CreateOrganizationInput = {
  name: string
  slug: string
  logo: string | null
  metadata: Record<string, unknown> | null
  keepCurrentActiveOrganization: boolean
}

export const createOrganization = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  creator: { userId: string; session: FoundSession | null; system: boolean },
  input: CreateOrganizationInput,
): Promise<{ organization: OrganizationRow; member: MemberRow }> => {
  const organizationId = newId()
  const memberId = newId()
  const defaultTeam = { teamId: newId(), teamMemberId: newId() }
  // The seat bounds the user's organizations under concurrency (membership-seats.ts), as the slug
  // claim decides between concurrent creates of one slug (ORGANIZATION_ALREADY_EXISTS).
  const { events, state } = await withMembershipSeat(ctx, creator.userId, 'create', (seat) =>
    runOrganizationCommand(
      ctx,
      origin,
      organizationId,
      {
        type: 'create-organization',
        organizationId,
        name: input.name,
        slug: input.slug,
        logo: input.logo,
        metadata: input.metadata,
        userId: creator.userId,
        byServer: creator.system,
        memberId,
        seat,
        defaultTeam,
        now: ctx.clock().toISOString(),
      },
      creator.system ? { type: 'system' } : { type: 'user', userId: creator.userId },
    ),
  )
  if (creator.session && !input.keepCurrentActiveOrganization) {
    const teamMade = events.some((event) => event.type === 'organization.team-created')
    await setSessionContext(
      ctx,
      origin,
      creator.session,
      organizationId,
      teamMade ? defaultTeam.teamId : null,
    )
  }
  return {
    organization: await mustFind(ctx.lookups.organizations.findOrganization(organizationId)),
    member: memberAnswer(state, memberId),
  }
}

/** The organization a request names, else the session's active one. */
const targetOrganization = (auth: FoundSession, organizationId: string | undefined | null) =>
  organizationId || auth.session.active_organization_id

export const updateOrganization = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: {
    organizationId?: string
    data: { name?: string; slug?: string; logo?: string | null; metadata?: Record<string, unknown> }
  },
): Promise<OrganizationRow> => {
  const organizationId = targetOrganization(auth, input.organizationId)
  if (!organizationId) throw AUTH_ERRORS.error('ORGANIZATION_NOT_FOUND')
  // A slug another organization holds is refused by its claim (ORGANIZATION_SLUG_ALREADY_TAKEN),
  // after the member and permission checks, as better-auth orders them.
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'update-organization',
      actorUserId: auth.user.id,
      ...input.data,
    },
    { type: 'user', userId: auth.user.id },
  )
  return mustFind(ctx.lookups.organizations.findOrganization(organizationId))
}

export const deleteOrganization = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  organizationId: string,
): Promise<OrganizationRow> => {
  // The answer is the organization as it was; its rows go with it.
  const before = await ctx.lookups.organizations.findOrganization(organizationId)
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    { type: 'delete-organization', actorUserId: auth.user.id },
    { type: 'user', userId: auth.user.id },
  )
  if (!before) throw AUTH_ERRORS.error('ORGANIZATION_NOT_FOUND')
  return before
}

/**
 * better-auth's set-active: null clears; nothing named keeps (and answers) the current one; a slug
 * or id must name an organization the caller belongs to, else the active one is cleared and 403.
 */
export const setActiveOrganization = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: { organizationId?: string | null; organizationSlug?: string },
): Promise<OrganizationRow | null> => {
  if (input.organizationId === null) {
    await setSessionContext(ctx, origin, auth, null, null)
    return null
  }
  let organizationId = input.organizationId
  if (!organizationId && input.organizationSlug) {
    const bySlug = await ctx.lookups.organizations.findOrganizationBySlug(input.organizationSlug)
    if (!bySlug) throw AUTH_ERRORS.error('ORGANIZATION_NOT_FOUND')
    organizationId = bySlug.id
  }
  organizationId ||= auth.session.active_organization_id ?? undefined
  if (!organizationId) return null
  const member = (await ctx.lookups.organizations.findMember(organizationId, auth.user.id)) !== undefined
  const organization = member ? await ctx.lookups.organizations.findOrganization(organizationId) : undefined
  if (member && !organization) throw AUTH_ERRORS.error('ORGANIZATION_NOT_FOUND')
  // Another organization's team does not follow the switch.
  const teamId = auth.session.active_organization_id === organizationId ? auth.session.active_team_id : null
  await setSessionContext(ctx, origin, auth, organizationId, teamId, { organization: member })
  return organization ?? null
}

export const leaveOrganization = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  organizationId: string,
): Promise<MemberWithUser> => {
  const member = await ctx.lookups.organizations.findMemberWithUser(organizationId, auth.user.id)
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    { type: 'leave-organization', userId: auth.user.id },
    { type: 'user', userId: auth.user.id },
  )
  return decided(member, 'member leaving')
}

export const removeMember = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  input: { memberIdOrEmail: string; organizationId?: string },
): Promise<MemberRow | MemberWithUser> => {
  const organizationId =
    caller.kind === 'user' ? targetOrganization(caller.session, input.organizationId) : input.organizationId
  if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
  const byEmail = input.memberIdOrEmail.includes('@')
  // Read before it goes: the answer is the member as it was.
  const target = byEmail
    ? await ctx.lookups.organizations.findMemberByEmail(organizationId, input.memberIdOrEmail)
    : await ctx.lookups.organizations.findMemberById(input.memberIdOrEmail)
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'remove-member',
      actorUserId: actorUserIdOf(caller),
      target: byEmail ? { userId: target?.user_id ?? null } : { memberId: input.memberIdOrEmail },
    },
    actorOf(caller),
  )
  // better-auth answers with the member's user when it was named by email, and without by id.
  return decided(target, 'member removed')
}

export const updateMemberRole = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  input: { memberId: string; role: string | string[]; organizationId?: string },
): Promise<MemberRow> => {
  const roles = normalizeRoles(input.role)
  if (roles.length === 0) throw invalidBodyField('role', 'must name at least one role')
  const organizationId =
    caller.kind === 'user' ? targetOrganization(caller.session, input.organizationId) : input.organizationId
  if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
  const named = await ctx.lookups.organizations.findMemberById(input.memberId)
  const { state } = await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'update-member-role',
      actorUserId: actorUserIdOf(caller),
      memberId: input.memberId,
      memberElsewhere: named !== undefined && named.organization_id !== organizationId,
      roles,
    },
    actorOf(caller),
  )
  return memberAnswer(state, input.memberId)
}

export type AddMemberInput = {
  userId: string
  role: string | string[]
  organizationId?: string
  teamId?: string
}

/**
 * Server only (the server API's `POST /organization/add-member` and `tessera organization
 * add-member`): adds a user without an invitation, with better-auth's checks in its order (the user,
 * an existing membership, the team, the organization, the membership limit).
 */
export const addMember = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  input: AddMemberInput,
): Promise<MemberRow> => {
  const roles = normalizeRoles(input.role)
  if (roles.length === 0) throw invalidBodyField('role', 'must name at least one role')
  // The server has no session, hence no active organization to fall back on.
  const organizationId =
    input.organizationId || (caller.kind === 'user' ? caller.session.session.active_organization_id : null)
  if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
  const userExists = (await ctx.lookups.users.byId(input.userId)) !== undefined
  const memberId = newId()
  const { state } = await withMembershipSeat(ctx, input.userId, 'join', (seat) =>
    runOrganizationCommand(
      ctx,
      origin,
      organizationId,
      {
        type: 'add-member',
        actorUserId: actorUserIdOf(caller),
        memberId,
        userId: input.userId,
        userExists,
        seat,
        roles,
        teamId: input.teamId || null,
        teamMemberId: newId(),
        now: ctx.clock().toISOString(),
      },
      actorOf(caller),
    ),
  )
  return memberAnswer(state, memberId)
}

export { userCaller }
