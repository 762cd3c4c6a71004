/// POST /two-factor/* (better-auth's twoFactor plugin): enable, disable, get-totp-uri,
/// generate-backup-codes for a signed-in person; verify-totp, verify-otp, verify-backup-code and
/// send-otp for a signed-in person or for a sign-in waiting on its second step (the two-factor
/// cookie). No other route accepts that cookie: without a session it is worth nothing elsewhere.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AUTH_ERRORS, type AuthErrorCode } from '../../domain/errors.js'
import { StatusSchema, UserSchema, userJson } from '../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { errorResponses, SIGNED_IN_POST_ERRORS } from '../../infra/http/openapi.js'
import { limitRecipient } from '../../infra/http/rate-limit.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import {
  disableTwoFactor,
  enableMailedCodes,
  enableTotp,
  regenerateBackupCodes,
  showTotpUri,
} from './manage-two-factor.js'
import { clearTwoFactorCookie, readTwoFactorCookie, setTwoFactorCookie } from './two-factor-cookies.js'
import { twoFactorStatusRoute } from './two-factor-status.js'
import { type CodeCaller, type CodeInput, sendCode, verifyCode } from './verify-code.js'

const PasswordBody = Type.Object(
  { password: Type.String({ maxLength: 4096 }) },
  { additionalProperties: false },
)
const EnableBody = Type.Object(
  {
    password: Type.String({ maxLength: 4096 }),
    method: Type.Optional(Type.Union([Type.Literal('totp'), Type.Literal('otp')])),
    issuer: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
)
const CodeBody = Type.Object(
  {
    code: Type.String({ maxLength: 64 }),
    trustDevice: Type.Optional(Type.Boolean()),
    disableSession: Type.Optional(Type.Boolean()),
    // The OpenID provider's signed request, when the sign-in began on its login page: the
    // authorization goes on once the second step is passed (oauth-provider/oauth-continue.hook.ts).
    oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
  },
  { additionalProperties: false },
)
const SendBody = Type.Optional(
  Type.Object({ trustDevice: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
)
const VerifiedSchema = Type.Object({ token: Type.Optional(Type.String()), user: UserSchema })
const CODE_ERRORS = [
  ...SIGNED_IN_POST_ERRORS,
  'INVALID_TWO_FACTOR_COOKIE',
  'ACCOUNT_TEMPORARILY_LOCKED',
  'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE',
] as const
const tags = ['Two-factor']

export const twoFactorRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(twoFactorStatusRoute(ctx))
    const { requireSession, optionalSession } = sessionGuards(ctx)
    const settings = ctx.sessions.cookieSettings
    const ownerOf = (request: FastifyRequest) => {
      const { user } = authOf(request)
      return { userId: user.id, email: user.email }
    }

    /** A live session, else the sign-in the two-factor cookie names, else better-auth's 401. */
    const callerOf = async (request: FastifyRequest): Promise<CodeCaller> => {
      const found = await optionalSession(request)
      if (found) {
        request.auth = found
        return { kind: 'session', userId: found.user.id }
      }
      const grant = readTwoFactorCookie(request, 'two_factor', settings)
      if (!grant) throw AUTH_ERRORS.error('INVALID_TWO_FACTOR_COOKIE')
      return { kind: 'challenge', userId: grant.userId, token: grant.token }
    }

    /** The answer to a good code: the new session for a sign-in, the current one otherwise. */
    const answerVerified = async (request: FastifyRequest, reply: FastifyReply, input: CodeInput) => {
      const caller = await callerOf(request)
      const outcome = await verifyCode(ctx, originOf(request), caller, input)
      if (caller.kind === 'session') {
        const { token, user } = authOf(request)
        return { ...(input.startsSession ? { token } : {}), user: userJson(user) }
      }
      // The row read beside the stream when the sign-in passed in one append; else read now.
      const user = outcome.user ?? (await ctx.lookups.users.byId(caller.userId))
      if (!user) throw AUTH_ERRORS.error('INVALID_TWO_FACTOR_COOKIE')
      if (!outcome.session) return { user: userJson(user) }
      setSessionCookie(reply, outcome.session, settings)
      clearTwoFactorCookie(reply, 'two_factor', settings)
      if (outcome.trustToken)
        setTwoFactorCookie(
          reply,
          'trust_device',
          { userId: caller.userId, token: outcome.trustToken },
          ctx.config.twoFactor.trustDeviceMaxAge,
          settings,
        )
      return { token: outcome.session.token, user: userJson(user) }
    }

    app.post(
      '/two-factor/enable',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Turn on two-factor authentication (the factor is on after the first code)',
          tags,
          body: EnableBody,
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, 'INVALID_PASSWORD', 'TOTP_ALREADY_ENABLED'),
            200: Type.Object({
              method: Type.Union([Type.Literal('totp'), Type.Literal('otp')]),
              totpURI: Type.Optional(Type.String()),
              backupCodes: Type.Optional(Type.Array(Type.String())),
            }),
          },
        },
      },
      async (request) => {
        const { password, method, issuer } = request.body
        if (method === 'otp') {
          await enableMailedCodes(ctx, originOf(request), ownerOf(request), password)
          return { method: 'otp' as const }
        }
        const enabled = await enableTotp(ctx, originOf(request), ownerOf(request), {
          password,
          ...(issuer !== undefined ? { issuer } : {}),
        })
        return { method: 'totp' as const, ...enabled }
      },
    )

    app.post(
      '/two-factor/disable',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Turn off two-factor authentication',
          tags,
          body: PasswordBody,
          response: { ...errorResponses(...SIGNED_IN_POST_ERRORS, 'INVALID_PASSWORD'), 200: StatusSchema },
        },
      },
      async (request, reply) => {
        await disableTwoFactor(ctx, originOf(request), ownerOf(request), request.body.password)
        clearTwoFactorCookie(reply, 'trust_device', settings)
        return { status: true }
      },
    )

    app.post(
      '/two-factor/get-totp-uri',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Show the authenticator URI again',
          tags,
          body: PasswordBody,
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, 'INVALID_PASSWORD', 'TOTP_NOT_ENABLED'),
            200: Type.Object({ totpURI: Type.String() }),
          },
        },
      },
      async (request) => ({ totpURI: await showTotpUri(ctx, ownerOf(request), request.body.password) }),
    )

    app.post(
      '/two-factor/generate-backup-codes',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Replace the backup codes (shown once)',
          tags,
          body: PasswordBody,
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, 'INVALID_PASSWORD', 'TWO_FACTOR_NOT_ENABLED'),
            200: Type.Object({ status: Type.Literal(true), backupCodes: Type.Array(Type.String()) }),
          },
        },
      },
      async (request) => {
        const backupCodes = await regenerateBackupCodes(
          ctx,
          originOf(request),
          ownerOf(request),
          request.body.password,
        )
        return { status: true as const, backupCodes }
      },
    )

    const codeRoute = (path: string, summary: string, method: CodeInput['method'], errors: AuthErrorCode[]) =>
      app.post(
        path,
        {
          schema: {
            summary,
            tags,
            body: CodeBody,
            response: { ...errorResponses(...CODE_ERRORS, ...errors), 200: VerifiedSchema },
          },
        },
        async (request, reply) =>
          answerVerified(request, reply, {
            method,
            code: request.body.code,
            trustDevice: request.body.trustDevice === true,
            startsSession: request.body.disableSession !== true,
          }),
      )
    codeRoute('/two-factor/verify-totp', 'Check an authenticator code', 'totp', [
      'INVALID_CODE',
      'TOTP_NOT_ENABLED',
    ])
    codeRoute('/two-factor/verify-otp', 'Check a mailed code', 'otp', ['INVALID_CODE', 'OTP_HAS_EXPIRED'])
    codeRoute('/two-factor/verify-backup-code', 'Use a backup code', 'backup-code', [
      'INVALID_BACKUP_CODE',
      'BACKUP_CODES_NOT_ENABLED',
    ])

    app.post(
      '/two-factor/send-otp',
      {
        schema: {
          summary: 'Mail a one-time code',
          tags,
          body: SendBody,
          response: { ...errorResponses(...CODE_ERRORS), 200: StatusSchema },
        },
      },
      async (request, reply) => {
        const caller = await callerOf(request)
        const user = request.auth?.user ?? (await ctx.lookups.users.byId(caller.userId))
        if (!user) throw AUTH_ERRORS.error('INVALID_TWO_FACTOR_COOKIE')
        await limitRecipient(reply, user.email)
        await sendCode(ctx, originOf(request), caller)
        return { status: true }
      },
    )
  }
