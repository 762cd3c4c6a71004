/// GET /two-factor/status (Tessera's own): what the portal's Security page shows. Whether the
/// factor is on and how, how many backup codes are left (they are kept as hashes, so the codes
/// themselves are shown only when made), and how many devices are trusted. Read from the log,
/// like every two-factor decision, so it never lags what was just done.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import type { CommandContext } from '../context.js'
import { loadTwoFactor } from './run-two-factor.js'

const StatusAnswer = Type.Object({
  enabled: Type.Boolean(),
  totp: Type.Boolean(),
  backupCodesLeft: Type.Integer(),
  trustedDevices: Type.Integer(),
})

export const twoFactorStatusRoute =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    app.get(
      '/two-factor/status',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Your second factor: on or off, backup codes left, trusted devices',
          tags: ['Two-factor'],
          response: { ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED'), 200: StatusAnswer },
        },
      },
      async (request) => {
        const state = await loadTwoFactor(ctx.store, authOf(request).user.id)
        const now = ctx.clock().toISOString()
        return {
          enabled: state.enabled,
          totp: state.totp?.verified === true,
          backupCodesLeft: state.enabled ? state.backupCodeHashes.length : 0,
          trustedDevices: state.trustedDevices.filter((device) => device.expiresAt > now).length,
        }
      },
    )
  }
