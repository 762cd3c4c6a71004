/// Membership seats: how the per-user `organizationLimit` holds under concurrency.
///
/// better-auth counts a user's memberships and refuses a create at the limit; two creates that count
/// at once would both pass. Here, while a limit is configured, every membership (created, accepted or
/// added) claims one of its user's seats (`<userId>:<n>`, scope `organization.membership-seat`) in
/// the append that adds it, and releases it in the append that ends it. A create may only take a
/// seat below the limit. Two appends that pick one seat conflict in the store (the claim is unique),
/// and the loser looks again: N concurrent creates by a user with limit L give exactly L
/// organizations, as N concurrent creates with one slug give one. Accepting an invitation or being
/// added is not limited (better-auth does not limit them either), but takes a seat all the same, so
/// it counts against later creates.
///
/// Memberships made while no limit was configured hold no seat; the read models' count still
/// refuses a create at the limit, only concurrent creates of such a user are not bounded by seats.

import { AUTH_ERRORS } from '../../domain/errors.js'
import { MEMBERSHIP_SEAT_SCOPE, membershipSeatValue } from '../../domain/organization/organization.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'

/** `create` must find a seat below the limit; `join` (accept, add-member) takes any free seat. */
export type SeatPurpose = 'create' | 'join'

/** Another append took a seat we picked: each one is a membership of this user that committed. */
const RETRIES_BEYOND_LIMIT = 16

const isSeatConflict = (error: unknown) =>
  error instanceof UniqueClaimConflictError && error.scope === MEMBERSHIP_SEAT_SCOPE

const seatIsFree = async (ctx: CommandContext, userId: string, seat: number) =>
  (await ctx.store.claimOwner(MEMBERSHIP_SEAT_SCOPE, membershipSeatValue(userId, seat))) === null

/**
 * The lowest free seat from `from` on (a user holding `from` memberships most likely has seats below
 * that taken); for a create, only below `limit`, looking under `from` too, since a membership that
 * ended may have freed a lower seat. Null when a create finds none.
 */
const freeSeat = async (
  ctx: CommandContext,
  userId: string,
  from: number,
  limit: number | null,
): Promise<number | null> => {
  if (limit === null) {
    for (let seat = from; ; seat++) if (await seatIsFree(ctx, userId, seat)) return seat
  }
  const order = [...range(from, limit), ...range(0, Math.min(from, limit))]
  for (const seat of order) if (await seatIsFree(ctx, userId, seat)) return seat
  return null
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i)

/**
 * Runs `append(seat)` with a free seat of `userId` (null while no limit is configured), and again with
 * another seat when a concurrent append took that one. A create refuses at the limit.
 */
export const withMembershipSeat = async <T>(
  ctx: CommandContext,
  userId: string,
  purpose: SeatPurpose,
  append: (seat: number | null) => Promise<T>,
): Promise<T> => {
  const limit = ctx.config.organization.organizationLimit
  if (limit === null) return append(null)
  const atLimit = () => AUTH_ERRORS.error('YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS')
  for (let attempt = 0; ; attempt++) {
    const held = await ctx.lookups.organizations.countOrganizationsOfUser(userId)
    if (purpose === 'create' && held >= limit) throw atLimit()
    const seat = await freeSeat(ctx, userId, held, purpose === 'create' ? limit : null)
    if (seat === null) throw atLimit()
    try {
      return await append(seat)
    } catch (error) {
      if (!isSeatConflict(error) || attempt >= limit + RETRIES_BEYOND_LIMIT) throw error
    }
  }
}
