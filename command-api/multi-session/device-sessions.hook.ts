/// Every answer that makes a session the device's active one (sign-up, sign-in, a password change
/// that renews the session, whatever starts sessions later) also gives the device a per-session
/// cookie for it, as better-auth's multi-session plugin does in its after-hook: one place instead
/// of every route that starts a session.

import type { onSendHookHandler } from 'fastify'
import { originOf } from '../../infra/http/request-metadata.js'
import {
  clearCookie,
  deviceSessionCookieName,
  readDeviceSessionCookies,
  sessionTokenSetBy,
  setDeviceSessionCookie,
} from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import { admitDeviceSession } from './device-sessions.js'

// A callback hook, not an async one: it runs on every answer, get-session's hot path included,
// and has work to do only when the answer sets the session cookie.
export const deviceSessionsHook =
  (ctx: CommandContext): onSendHookHandler =>
  (request, reply, payload, done) => {
    const token = sessionTokenSetBy(reply)
    if (token === null || reply.statusCode >= 400) return done(null, payload)
    const settings = ctx.sessions.cookieSettings
    const held = readDeviceSessionCookies(request, settings)
    const name = deviceSessionCookieName(settings.secure, token)
    if (held.some((cookie) => cookie.name === name)) return done(null, payload)
    admitDeviceSession(ctx, originOf(request), { token, held })
      .then(({ keep, dropped }) => {
        for (const cookie of dropped) clearCookie(reply, cookie.name, settings)
        if (keep) setDeviceSessionCookie(reply, token, settings)
      })
      .then(() => done(null, payload), done)
  }
