/// The ban every way in reads (password, username, social, email-verification auto sign-in,
/// impersonation, API-key sessions, the second step): `startSession` hands it to the session
/// decider in its `start-session`, the ways in without a session yet in an `admit-person`, as
/// better-auth's admin plugin checks on session creation. A ban past its expiry lifts itself here,
/// recorded with the system as actor.

import { sessionDecider } from '../../domain/session/session.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { banStanding } from '../../domain/user/ban.js'
import type { CommandContext } from '../context.js'
import { runUserCommand } from './run-user-command.js'

/**
 * The ban that holds on the person, as the message it is refused with (better-auth's, or the
 * config's `admin.bannedUserMessage`), or null; a ban that has expired is lifted here. It reads the
 * ban afresh: a row read before a password check is too old to trust (a ban may have landed while
 * it ran). `startSession` hands the answer to the session decider, which refuses.
 */
export const holdingBan = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
): Promise<string | null> => {
  const user = await ctx.lookups.users.banOf(userId)
  if (!user) return null
  const now = ctx.clock()
  const standing = banStanding({ banned: user.banned, banExpires: user.ban_expires }, now)
  if (standing === 'banned') return ctx.config.admin.bannedUserMessage
  if (standing === 'expired')
    await runUserCommand(
      ctx,
      origin,
      userId,
      { type: 'lift-expired-ban', now: now.toISOString() },
      { type: 'system' },
    )
  return null
}

/**
 * For the ways in that must refuse before any session starts (an API key's request, a sign-in paused
 * for its second step): the session decider, which owns who may have a session, is asked with the
 * ban read here, and refuses 403 BANNED_USER (better-auth's code and status, with the message the
 * config may change, `admin.bannedUserMessage`). Nothing is recorded.
 */
export const refuseBannedUser = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
): Promise<void> => {
  const bannedWith = await holdingBan(ctx, origin, userId)
  sessionDecider.decide({ type: 'admit-person', bannedWith }, sessionDecider.initialState())
}
