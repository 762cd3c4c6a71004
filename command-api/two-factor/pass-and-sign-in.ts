/// The second step of a sign-in that passes, in one append: the code's acceptance (the two-factor
/// aggregate's events) and the new session go to the log together, with one wait for the read
/// models, instead of one append and wait for each (issue 33's verify-totp figure). The decider
/// still decides: the edge loads the stream's state through `handle.load` (its kept folded states),
/// asks the decider what the command would record, and only when that is a passed challenge appends
/// the command through `handle.together` pinned to the version loaded: `handle` decides on the state
/// it kept at that version without reading the stream again, so the decision made inside it is the
/// very one foreseen, and a stream that moved meanwhile fails the append. Any other outcome (a wrong
/// code, a refusal, a ban, a concurrent change) goes the ordinary way.

import { secondStepAmr } from '../../domain/session/amr.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import {
  type TwoFactor,
  type TwoFactorCommand,
  type TwoFactorEvent,
  twoFactorDecider,
  twoFactorStream,
} from '../../domain/two-factor/two-factor.js'
import { banStanding } from '../../domain/user/ban.js'
import type { UserStanding } from '../../http/ports/user-lookup.js'
import { ConcurrencyError } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'
import { refuseDeactivatedUser } from '../scim/refuse-deactivated.js'
import { newSession, type StartedSession } from '../sessions/start-session.js'
import { handlePart } from '../shared/handle.js'
import { refuseBannedUser } from '../shared/refuse-banned.js'
import type { LoadedTwoFactor } from './run-two-factor.js'

/** What the decider would record, or null when it refuses by throwing. */
const foresee = (command: TwoFactorCommand, state: TwoFactor): TwoFactorEvent[] | null => {
  try {
    return twoFactorDecider.decide(command, state)
  } catch {
    return null
  }
}

/**
 * Whether the person may have a session now: neither banned (an expired ban goes the ordinary way,
 * which lifts it) nor deactivated. `standing` was read beside the stream, as fresh as the checks of
 * `startSession`; without a row (the read model has not caught up) those checks run as they would.
 */
const mayStartSession = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  standing: UserStanding | undefined,
): Promise<boolean> => {
  if (standing) {
    const { banned, ban_expires } = standing.user
    return !standing.deactivated && banStanding({ banned, banExpires: ban_expires }, ctx.clock()) === 'none'
  }
  return Promise.all([refuseBannedUser(ctx, origin, userId), refuseDeactivatedUser(ctx, userId)]).then(
    () => true,
    () => false,
  )
}

/**
 * The session of a sign-in whose code passes, appended with the acceptance; null when the command
 * would not pass a challenge, the person may not have a session, or the stream moved since it was
 * read: the caller then runs the command the ordinary way, which decides and refuses as before.
 */
export const passAndStartSession = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  command: TwoFactorCommand,
  { loaded, standing }: { loaded: LoadedTwoFactor; standing: UserStanding | undefined },
): Promise<StartedSession | null> => {
  if (loaded.version === 'no_stream') return null
  const passed = foresee(command, loaded.state)?.find((event) => event.type === 'two-factor.challenge-passed')
  if (passed?.type !== 'two-factor.challenge-passed') return null
  // A person who may not have a session: the ordinary way records the code, then refuses.
  if (!(await mayStartSession(ctx, origin, userId, standing))) return null
  const { part, started } = newSession(ctx, origin, {
    userId,
    rememberMe: passed.data.rememberMe,
    amr: secondStepAmr(passed.data.firstFactor, passed.data.method),
  })
  const metadata = metadataFor(origin, { type: 'user', userId }, ctx.clock())
  // Pinned: decided on the state `handle` kept at the version loaded, never re-decided (a pinned
  // append is not retried).
  const pass = handlePart(twoFactorDecider, twoFactorStream(userId), command, {
    metadata,
    expectedVersion: loaded.version,
  })
  try {
    await ctx.handle.together([pass, part])
  } catch (error) {
    if (error instanceof ConcurrencyError) return null
    throw error
  }
  return started
}
