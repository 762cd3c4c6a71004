/// The sessions a device holds per-session cookies for (multi-session), sorted: the ones still
/// valid, with their users, and the cookies whose session ended, expired or never existed, which
/// the answer removes.

import type { DeviceSessionCookie } from '../../infra/http/session-cookie.js'
import type { FoundSession, SessionResolver } from './resolve-session.js'

export type DeviceSessions = { valid: FoundSession[]; stale: DeviceSessionCookie[] }

export const sortDeviceSessions = async (
  sessions: SessionResolver,
  cookies: readonly DeviceSessionCookie[],
  now: Date,
): Promise<DeviceSessions> => {
  const looked = await Promise.all(
    cookies.map(async (cookie) => ({ cookie, lookup: await sessions.lookup(cookie.token, now) })),
  )
  const sorted: DeviceSessions = { valid: [], stale: [] }
  for (const { cookie, lookup } of looked)
    if (lookup.status === 'valid') sorted.valid.push(lookup.found)
    else sorted.stale.push(cookie)
  return sorted
}

/** One entry per account, the first cookie's session winning, as better-auth lists them. */
export const onePerAccount = (found: readonly FoundSession[]): FoundSession[] =>
  found.filter((entry, index) => found.findIndex((other) => other.user.id === entry.user.id) === index)
