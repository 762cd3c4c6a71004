/// Provisioning through SCIM: each call is a command on the aggregates it changes, with the SCIM
/// credential as actor. Create registers the account (user), provisions it (scim-user) and adds the
/// membership (organization); replace and patch change the account and the directory's record;
/// deactivation ends every session and refuses sign-in (scim-user's events, written inline);
/// delete removes the membership and the directory's record.

import { organizationClaims, organizationStream } from '../../domain/organization/organization.js'
import { SCIM_ERRORS } from '../../domain/scim/scim-errors.js'
import {
  type ScimUserEvent,
  scimUserClaims,
  scimUserDecider,
  scimUserStream,
} from '../../domain/scim/scim-user.js'
import { fold } from '../../domain/shared/decider.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import { userClaims, userDecider, userStream } from '../../domain/user/user.js'
import { type ScimPrincipal, scimActor } from '../../http/scim/scim-auth.js'
import { ScimError } from '../../http/scim/scim-http.js'
import { newId } from '../../infra/crypto/tokens.js'
import { ConcurrencyError, UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import { findMember } from '../../projections/organizations/organizations.repository.js'
import { findScimUser, type ScimUserView } from '../../projections/scim/scim-users.repository.js'
import type { CommandContext } from '../context.js'
import { handlePart } from '../shared/handle.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { oneAtATime, retryingConcurrency } from './one-at-a-time.js'
import type { ScimUserInput, ScimUserResource } from './scim-resource.js'

/** The role a provisioned person gets in the organization. */
export const SCIM_MEMBER_ROLE = 'member'

/** Any value another person holds (address, userName, externalId) is a SCIM `uniqueness` conflict. */
const uniquely = async <T>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run()
  } catch (error) {
    if (error instanceof UniqueClaimConflictError) throw SCIM_ERRORS.error('SCIM_USER_ALREADY_EXISTS')
    throw error
  }
}

const mustFind = async (
  ctx: CommandContext,
  principal: ScimPrincipal,
  userId: string,
): Promise<ScimUserView> => {
  const row = await findScimUser(ctx.db, principal.connectionId, userId)
  if (!row) throw SCIM_ERRORS.error('SCIM_USER_NOT_FOUND')
  return row
}

export const createScimUser = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  principal: ScimPrincipal,
  input: ScimUserInput,
): Promise<ScimUserView> => {
  const userId = newId()
  const metadata = metadataFor(origin, scimActor(principal), ctx.clock())
  const { connectionId, organizationId } = principal
  const user = handlePart(
    userDecider,
    userStream(userId),
    {
      type: 'register-user',
      userId,
      email: input.email,
      name: input.name,
      image: null,
      credential: null,
      sendVerification: false,
      callbackURL: null,
    },
    { metadata, claims: userClaims, newStream: true },
  )
  const scimUser = handlePart(
    scimUserDecider,
    scimUserStream(userId),
    { type: 'provision-scim-user', userId, organizationId, connectionId, ...pick(input) },
    { metadata, claims: scimUserClaims, newStream: true },
  )
  const membership = (release: () => void) =>
    handlePart(
      ctx.organizations,
      organizationStream(organizationId),
      {
        type: 'add-member',
        actorUserId: null,
        memberId: newId(),
        userId,
        userExists: true,
        seat: firstSeat(ctx),
        roles: [SCIM_MEMBER_ROLE],
        teamId: null,
        teamMemberId: newId(),
        now: ctx.clock().toISOString(),
      },
      { metadata, claims: organizationClaims, onAppended: release },
    )
  // The person's data key is made now, outside the queue: sealing their fields in the append then
  // finds it cached, one statement less while the organization's queue is held.
  await ctx.personKeys.canSeal(userId)
  // The account, its directory record and its membership in one append (one transaction, one wait
  // for the read models): a refused membership leaves no account behind. Only the decision and the
  // append hold the organization's queue; the next create goes while this one waits for the reads.
  await uniquely(() =>
    oneAtATime(ctx, organizationId, (release) =>
      retryingConcurrency(() => ctx.handle.together([user, scimUser, membership(release)])),
    ),
  )
  return mustFind(ctx, principal, userId)
}

/**
 * The membership seat of a user created in the same append: while an `organizationLimit` is
 * configured every membership claims one of its user's seats (membership-seats.ts), and a user made
 * just now holds none, so it takes the first, as `withMembershipSeat` would pick after looking.
 */
const firstSeat = (ctx: CommandContext): number | null =>
  ctx.config.organization.organizationLimit === null ? null : 0

const pick = ({ userName, externalId, active }: ScimUserInput) => ({ userName, externalId, active })

/** What a patch was built from: the account's name and address, and the directory stream's version. */
type Basis = { current: Pick<ScimUserView, 'name' | 'email'>; scimVersion: number }

/** Replace (PUT) and patch both end here, with the values the resource now has. */
export const replaceScimUser = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  principal: ScimPrincipal,
  userId: string,
  input: ScimUserInput,
  basis?: Basis,
): Promise<ScimUserView> => {
  const current = basis?.current ?? (await mustFind(ctx, principal, userId))
  const actor = scimActor(principal)
  const emailChanged = input.email.toLowerCase() !== current.email.toLowerCase()
  const nameChanged = input.name !== current.name
  // The address first: the one change another person's claim can refuse, before anything is written.
  if (emailChanged)
    await uniquely(() =>
      runUserCommand(
        ctx,
        origin,
        userId,
        { type: 'admin-set-email', newEmail: input.email, emailVerified: false },
        actor,
      ),
    )
  const metadata = metadataFor(origin, actor, ctx.clock())
  const scimPart = handlePart(
    scimUserDecider,
    scimUserStream(userId),
    {
      type: 'update-scim-user',
      connectionId: principal.connectionId,
      ...pick(input),
      accountAttributes: [...(nameChanged ? ['name'] : []), ...(emailChanged ? ['emails'] : [])],
    },
    // Every change a call makes appends here, so pinning this stream orders concurrent patches.
    { metadata, claims: scimUserClaims, ...(basis ? { expectedVersion: basis.scimVersion } : {}) },
  )
  const namePart = handlePart(
    userDecider,
    userStream(userId),
    { type: 'update-profile', name: input.name },
    { metadata, claims: userClaims },
  )
  await uniquely(() => ctx.handle.together(nameChanged ? [scimPart, namePart] : [scimPart]))
  return mustFind(ctx, principal, userId)
}

type ResourceFields = Pick<ScimUserView, 'user_name' | 'external_id' | 'active' | 'name' | 'email'>

/** The stored person as a patch starts from. */
export const resourceOf = (row: ResourceFields): ScimUserResource => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: row.user_name,
  externalId: row.external_id,
  active: row.active,
  displayName: row.name,
  name: nameParts(row.name),
  emails: [{ value: row.email, primary: true }],
})

/**
 * The account keeps one name; a patch of one part (`name.givenName`) needs the other, so the stored
 * name is read back as its first word and the rest.
 */
const nameParts = (formatted: string) => {
  const [givenName = '', ...rest] = formatted.trim().split(/\s+/)
  return { formatted, givenName, ...(rest.length > 0 ? { familyName: rest.join(' ') } : {}) }
}

/** The person as their streams have them (never a read model that may lag a write just made). */
const fromStreams = async (ctx: CommandContext, principal: ScimPrincipal, userId: string) => {
  const [scimHistory, userHistory] = await Promise.all([
    ctx.store.readStream(scimUserStream(userId)),
    ctx.store.readStream(userStream(userId)),
  ])
  // Each stream holds only its aggregate's events: they were written through its decider.
  const scim = fold(scimUserDecider, scimHistory as unknown as ScimUserEvent[])
  const user = fold(userDecider, userHistory as unknown as UserEvent[])
  if (
    scim.status !== 'provisioned' ||
    scim.connectionId !== principal.connectionId ||
    user.status !== 'active'
  )
    throw SCIM_ERRORS.error('SCIM_USER_NOT_FOUND')
  const fields: ResourceFields = {
    user_name: scim.userName,
    external_id: scim.externalId,
    active: scim.active,
    name: user.name,
    email: user.email,
  }
  return { fields, scimVersion: scimHistory.at(-1)?.streamVersion ?? 0 }
}

const PATCH_ATTEMPTS = 8

/**
 * PATCH is a read-modify-write: the patch is applied to the person as their streams stand, and the
 * write expects the directory stream at the version read. A concurrent patch in between makes this
 * one read and apply again, so neither loses the other's change.
 */
export const patchScimUser = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  principal: ScimPrincipal,
  userId: string,
  patch: (resource: ScimUserResource) => ScimUserInput,
): Promise<ScimUserView> => {
  for (let attempt = 1; ; attempt++) {
    const { fields, scimVersion } = await fromStreams(ctx, principal, userId)
    const input = patch(resourceOf(fields))
    try {
      return await replaceScimUser(ctx, origin, principal, userId, input, { current: fields, scimVersion })
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error
      if (attempt >= PATCH_ATTEMPTS)
        throw new ScimError(409, 'The User kept changing while it was patched; retry')
    }
  }
}

export const deleteScimUser = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  principal: ScimPrincipal,
  userId: string,
): Promise<void> => {
  await mustFind(ctx, principal, userId)
  const metadata = metadataFor(origin, scimActor(principal), ctx.clock())
  const { connectionId, organizationId } = principal
  const deprovision = handlePart(
    scimUserDecider,
    scimUserStream(userId),
    { type: 'deprovision-scim-user', connectionId },
    { metadata, claims: scimUserClaims },
  )
  // An admin may have removed the membership already; then only the directory's record goes.
  const member = await findMember(ctx.db, organizationId, userId)
  const removal = handlePart(
    ctx.organizations,
    organizationStream(organizationId),
    {
      type: 'remove-member',
      actorUserId: null,
      target: { userId },
    },
    { metadata, claims: organizationClaims },
  )
  await ctx.handle.together(member ? [deprovision, removal] : [deprovision])
}
