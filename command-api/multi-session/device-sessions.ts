/// Multi-session, as better-auth's plugin keeps it: a device holds one signed cookie per account
/// signed in on it (at most five), and one of those sessions is the active one. These use cases
/// decide what happens to the device's sessions; the routes and the answer hook set the cookies.

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { sortDeviceSessions } from '../../http/sessions/device-sessions.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import type { DeviceSessionCookie } from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import { expireSession, revokeSession } from '../sessions/end-session.js'

/** Simultaneous device sessions (spec, section 9). */
export const MAXIMUM_DEVICE_SESSIONS = 5

export type Admission = {
  /** Whether the device gets a cookie for the new session (not past the limit). */
  keep: boolean
  /** Cookies the device loses: the account's older session there, and sessions no longer valid. */
  dropped: DeviceSessionCookie[]
}

/**
 * A session became the device's active one and the device holds no cookie for it yet. An account
 * has one session per device: signing in again ends the older one. Past the limit the new session
 * stays active but gets no cookie of its own, as in better-auth.
 */
export const admitDeviceSession = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { token, held }: { token: string; held: readonly DeviceSessionCookie[] },
): Promise<Admission> => {
  if (held.length === 0) return { keep: true, dropped: [] }
  const now = ctx.clock()
  const { valid, stale } = await sortDeviceSessions(ctx.sessions, held, now)
  const added = await ctx.sessions.lookup(token, now)
  if (added.status !== 'valid') return { keep: false, dropped: stale }
  const userId = added.found.user.id
  const older = valid.filter((found) => found.user.id === userId && found.token !== token)
  for (const { session } of older)
    await revokeSession(ctx, origin, {
      sessionId: session.id,
      requestedBy: userId,
      reason: 'signed-in-again',
    })
  const olderTokens = new Set(older.map((found) => found.token))
  return {
    keep: valid.length - older.length + 1 <= MAXIMUM_DEVICE_SESSIONS,
    dropped: [...stale, ...held.filter((cookie) => olderTokens.has(cookie.token))],
  }
}

export type DeviceRevocation = {
  /** The device's active session afterwards: unchanged, another one of the device's, or none. */
  active: 'unchanged' | FoundSession | null
  dropped: DeviceSessionCookie[]
}

/**
 * Signs one account out of the device, the device's cookie being its authority: its owner is the
 * one asking. When it was the active session, the next valid one takes over.
 */
export const revokeDeviceSession = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  {
    revoked,
    activeToken,
    held,
  }: { revoked: DeviceSessionCookie; activeToken: string; held: readonly DeviceSessionCookie[] },
): Promise<DeviceRevocation> => {
  const now = ctx.clock()
  const lookup = await ctx.sessions.lookup(revoked.token, now)
  if (lookup.status === 'expired') await expireSession(ctx, origin, lookup.found.session.id)
  if (lookup.status !== 'valid') throw AUTH_ERRORS.error('INVALID_SESSION_TOKEN')
  const { session, user } = lookup.found
  await revokeSession(ctx, origin, { sessionId: session.id, requestedBy: user.id, reason: 'sign-out' })
  if (revoked.token !== activeToken) return { active: 'unchanged', dropped: [revoked] }
  const others = held.filter((cookie) => cookie.token !== revoked.token)
  const { valid, stale } = await sortDeviceSessions(ctx.sessions, others, now)
  return { active: valid[0] ?? null, dropped: [revoked, ...stale] }
}

/** Sign-out ends every session the device holds a cookie for, whichever account it belongs to. */
export const signOutDevice = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  held: readonly DeviceSessionCookie[],
): Promise<void> => {
  const { valid } = await sortDeviceSessions(ctx.sessions, held, ctx.clock())
  for (const { session, user } of valid)
    await revokeSession(ctx, origin, { sessionId: session.id, requestedBy: user.id, reason: 'sign-out' })
}
