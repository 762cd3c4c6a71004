/// Provisioning through SCIM: each call is a command on the aggregates it changes, with the SCIM
/// credential as actor. Create registers the account (user), provisions it (scim-user) and adds the
/// membership (organization); replace and patch change the account and the directory's record;
/// deactivation ends every session and refuses sign-in (scim-user's events, written inline);
/// delete removes the membership and the directory's record.

import { organizationClaims, organizationStream } from '../../domain/organization/organization.js'
import { SCIM_ERRORS } from '../../domain/scim/scim-errors.js'
import { scimUserClaims, scimUserDecider, scimUserStream } from '../../domain/scim/scim-user.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { userClaims, userDecider, userStream } from '../../domain/user/user.js'
import { type ScimPrincipal, scimActor } from '../../http/scim/scim-auth.js'
import { newId } from '../../infra/crypto/tokens.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import { findMember } from '../../projections/organizations/organizations.repository.js'
import { findScimUser, type ScimUserView } from '../../projections/scim/scim-users.repository.js'
import type { CommandContext } from '../context.js'
import { addMember } from '../organization/organizations.js'
import { handlePart } from '../shared/handle.js'
import { runUserCommand } from '../shared/run-user-command.js'
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
  await uniquely(() =>
    ctx.handle.together([
      handlePart(
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
      ),
      handlePart(
        scimUserDecider,
        scimUserStream(userId),
        { type: 'provision-scim-user', userId, organizationId, connectionId, ...pick(input) },
        { metadata, claims: scimUserClaims, newStream: true },
      ),
    ]),
  )
  await addMember(
    ctx,
    origin,
    { kind: 'server', actor: scimActor(principal) },
    { userId, role: SCIM_MEMBER_ROLE, organizationId },
  )
  return mustFind(ctx, principal, userId)
}

const pick = ({ userName, externalId, active }: ScimUserInput) => ({ userName, externalId, active })

/** Replace (PUT) and patch both end here, with the values the resource now has. */
export const replaceScimUser = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  principal: ScimPrincipal,
  userId: string,
  input: ScimUserInput,
): Promise<ScimUserView> => {
  const current = await mustFind(ctx, principal, userId)
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
    { metadata, claims: scimUserClaims },
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

/** The stored person as a patch starts from. */
export const resourceOf = (row: ScimUserView): ScimUserResource => ({
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

export const findOwnScimUser = mustFind

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
