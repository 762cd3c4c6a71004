/// The API-key session port (http/ports/api-key-session-port.ts): `x-api-key` verified as
/// the server API's verify does (a use taken, expiry and exhaustion recorded), then its owner is the
/// session, as better-auth's `enableSessionForAPIKeys` answers: a key shorter than a generated one
/// 403 INVALID_API_KEY, a refused key its verify error as an HTTP error, the session's id the key's
/// and its expiry the key's (or the session lifetime).

import { API_KEY_LIMITS } from '../../domain/api-key/api-key-rules.js'
import { errorWithStatus } from '../../domain/errors.js'
import { API_KEY_HEADER, type ApiKeySessionPort } from '../../http/ports/api-key-session-port.js'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import { refuseBannedUser } from '../shared/refuse-banned.js'
import { verifyApiKey } from './verify-api-key.js'

const STATUS_OF: Record<string, number> = {
  INVALID_API_KEY: 401,
  KEY_DISABLED: 401,
  KEY_EXPIRED: 401,
  KEY_NOT_FOUND: 401,
  USAGE_EXCEEDED: 429,
  RATE_LIMITED: 429,
}

export const apiKeySessionsFor = (context: () => CommandContext): ApiKeySessionPort => ({
  async sessionFor(request) {
    const header = request.headers[API_KEY_HEADER]
    if (typeof header !== 'string' || header === '') return null
    if (header.length < API_KEY_LIMITS.keyLength) throw errorWithStatus('INVALID_API_KEY', 403)
    const ctx = context()
    const answer = await verifyApiKey(ctx, originOf(request), (apiKeyId) => ({ type: 'api-key', apiKeyId }), {
      key: header,
    })
    if (!answer.valid) {
      const code = answer.error.code as keyof typeof STATUS_OF
      throw errorWithStatus(
        code in STATUS_OF ? (code as 'INVALID_API_KEY') : 'INVALID_API_KEY',
        STATUS_OF[code] ?? 401,
      )
    }
    // An organization's key is nobody's session (better-auth refuses it too, 401).
    const user = answer.key.userId === null ? null : await ctx.lookups.users.byId(answer.key.userId)
    if (!user) throw errorWithStatus('INVALID_API_KEY', 401)
    // A banned owner's keys open no session (403 BANNED_USER), as no other way in does: the session
    // decider judges it (`admit-person`) from the ban read afresh.
    await refuseBannedUser(ctx, originOf(request), user.id)
    const now = ctx.clock()
    const expiresAt = answer.key.expiresAt
      ? new Date(answer.key.expiresAt)
      : new Date(now.getTime() + ctx.config.session.expiresIn * 1000)
    const origin = originOf(request)
    return {
      user,
      token: header,
      session: {
        id: answer.key.id,
        user_id: user.id,
        token_hash: '',
        expires_at: expiresAt,
        ip_address: origin.ip,
        user_agent: origin.userAgent,
        place_country: origin.place?.country ?? null,
        place_city: origin.place?.city ?? null,
        remember_me: false,
        active_organization_id: null,
        active_team_id: null,
        impersonated_by: null,
        amr: null,
        created_at: now,
        updated_at: now,
      },
    }
  },
})
