/// What every organization use case shares: the policy from configuration, running a command on an
/// organization's stream (slug claims, metadata), who is calling, and the session's active
/// organization and team.

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { OrganizationCommand, OrganizationPolicy } from '../../domain/organization/organization.js'
import { organizationClaims, organizationStream, SLUG_SCOPE } from '../../domain/organization/organization.js'
import { activeOrganizationRefusal, sessionDecider, sessionStream } from '../../domain/session/session.js'
import type { Actor, RequestOrigin } from '../../domain/shared/metadata.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { acceptedSecrets, type Config } from '../../infra/config/config.js'
import { hmacSha256, type Secret } from '../../infra/crypto/hmac.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'

export const organizationPolicy = (config: Config): OrganizationPolicy => {
  const options = config.organization
  return {
    creatorRole: options.creatorRole,
    membershipLimit: options.membershipLimit,
    invitationLimit: options.invitationLimit,
    invitationExpiresInSeconds: options.invitationExpiresIn,
    teams: options.teams,
    allowUserToCreateOrganization: options.allowUserToCreateOrganization,
    disableOrganizationDeletion: options.disableOrganizationDeletion,
    requireEmailVerificationOnInvitation: options.requireEmailVerificationOnInvitation,
    dynamicRoles: options.dynamicAccessControl.enabled
      ? {
          maximumRolesPerOrganization:
            options.dynamicAccessControl.maximumRolesPerOrganization ?? Number.POSITIVE_INFINITY,
        }
      : null,
  }
}

/** Who acts on an organization: a signed-in user, or the server (the CLI, the server API). */
export type Caller =
  | { kind: 'user'; userId: string; session: FoundSession }
  | { kind: 'server'; actor: Actor }

export const userCaller = (session: FoundSession): Caller => ({
  kind: 'user',
  userId: session.user.id,
  session,
})

export const actorOf = (caller: Caller): Actor =>
  caller.kind === 'user' ? { type: 'user', userId: caller.userId } : caller.actor

export const actorUserIdOf = (caller: Caller): string | null =>
  caller.kind === 'user' ? caller.userId : null

/**
 * Runs `command` on the organization's stream. With no organization to name (the id the request
 * gave resolved to none), the decider refuses it as it refuses any command about an organization
 * that is not there, in the words of that command.
 */
export const runOrganizationCommand = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  organizationId: string | null,
  command: OrganizationCommand,
  actor: Actor,
) => {
  if (organizationId === null) {
    ctx.organizations.decide(command, ctx.organizations.initialState())
    throw new Error(`${command.type} was decided without its organization`)
  }
  try {
    return await ctx.handle(ctx.organizations, organizationStream(organizationId), command, {
      metadata: metadataFor(origin, actor, ctx.clock()),
      claims: organizationClaims,
    })
  } catch (error) {
    // The slug was claimed by another organization between our read and our append. (A membership
    // seat taken meanwhile goes back to `withMembershipSeat`, which picks another.)
    if (error instanceof UniqueClaimConflictError && error.scope === SLUG_SCOPE)
      throw AUTH_ERRORS.error(
        command.type === 'create-organization'
          ? 'ORGANIZATION_ALREADY_EXISTS'
          : 'ORGANIZATION_SLUG_ALREADY_TAKEN',
      )
    throw error
  }
}

/**
 * Records the session's active organization and team; nothing when they are already those. With the
 * person's membership of what they name, the session's decider refuses a team they are not in, and
 * clears the choice of an organization they do not belong to before its refusal is thrown here.
 */
export const setSessionContext = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  found: FoundSession,
  organizationId: string | null,
  teamId: string | null,
  membership?: { organization?: boolean; team?: boolean },
): Promise<void> => {
  const { session } = found
  const command = {
    type: 'set-active-organization',
    requestedBy: session.user_id,
    organizationId,
    teamId,
    ...(membership ? { membership } : {}),
  } as const
  const unchanged = (wanted: string | null, team: string | null) =>
    session.active_organization_id === wanted && session.active_team_id === team
  const refusal = activeOrganizationRefusal(command)
  const alreadyRecorded = refusal ? unchanged(null, null) : unchanged(organizationId, teamId)
  // A team refused is the decider's to answer, even when it is already the active one.
  if (!alreadyRecorded || membership?.team === false)
    await ctx.handle(sessionDecider, sessionStream(session.id), command, {
      metadata: metadataFor(origin, { type: 'user', userId: session.user_id }, ctx.clock()),
    })
  if (refusal) throw refusal
}

/**
 * The key id an invitee's address is sealed under: an HMAC of the lowercased address under the
 * store's claim key, so it names the person the invitation is for (with or without an account),
 * nobody can derive it without that key, and a rotation of AUTH_SECRET (which re-wraps the claim key
 * but never changes it) does not rename it. Erasing the person tombstones the key for good, so the
 * next person to hold the address is named by the next generation (`:1`, `:2`, …).
 */
export const inviteeSubjectFor = (key: Secret, email: string, generation = 0): string => {
  const name = `invitee:${hmacSha256(key, `invitee-email:${email.trim().toLowerCase()}`).toString('base64url')}`
  return generation === 0 ? name : `${name}:${generation}`
}

/** An address erased this often is refused rather than walked further. */
const MAX_INVITEE_GENERATIONS = 64

/** The generation of the address's key that can still seal, and the generations before it. */
const liveInviteeGeneration = async (ctx: CommandContext, email: string) => {
  const claimKey = await ctx.personKeys.claimKey()
  for (let generation = 0; generation < MAX_INVITEE_GENERATIONS; generation++) {
    const subject = inviteeSubjectFor(claimKey, email, generation)
    if (await ctx.personKeys.canSeal(subject)) return { subject, claimKey, generation }
  }
  throw new Error('an invitee address erased too often to name a key for it')
}

/** The subject a new invitation to `email` is sealed under. */
export const inviteeSubject = async (ctx: CommandContext, email: string): Promise<string> =>
  (await liveInviteeGeneration(ctx, email)).subject

/**
 * Every key id an address's invitations may be sealed under, to erase with the person: the claim
 * key's generations up to the live one, and those of invitations made before invitee keys were
 * named from the claim key (under AUTH_SECRET itself, the current one or a retired one configured).
 */
export const inviteeSubjectsToErase = async (ctx: CommandContext, email: string): Promise<string[]> => {
  const { subject, claimKey, generation } = await liveInviteeGeneration(ctx, email)
  const earlier = Array.from({ length: generation }, (_, n) => inviteeSubjectFor(claimKey, email, n))
  const legacy = acceptedSecrets(ctx.config).map((secret) => inviteeSubjectFor(secret, email))
  return [...new Set([...earlier, subject, ...legacy])]
}

/** better-auth takes a role as a string ('admin,member') or an array; blanks are dropped. */
export const normalizeRoles = (role: string | readonly string[]): string[] =>
  (Array.isArray(role) ? role : [role])
    .flatMap((entry: string) => entry.split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
