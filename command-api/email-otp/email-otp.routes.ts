/// The emailOTP plugin's routes on better-auth's wire: send-verification-otp, check-verification-otp,
/// verify-email, sign-in/email-otp, the password reset (request-password-reset and its older name
/// forget-password/email-otp, reset-password) and the change of address.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { OTP_TYPES } from '../../domain/email-otp/email-otp.js'
import type { AuthErrorCode } from '../../domain/errors.js'
import { UserSchema, userJson } from '../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { errorResponses, POST_ERRORS, SIGNED_IN_POST_ERRORS } from '../../infra/http/openapi.js'
import { firstLoginOriginHook } from '../../infra/http/origin-check.js'
import { limitRecipient } from '../../infra/http/rate-limit.js'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import { answerSignIn, TwoFactorRedirectSchema } from '../email-password/signed-in-answer.js'
import { provenFirstFactor } from '../passwordless/proven-address.js'
import { changeEmailWithOtp, requestEmailChangeOtp } from './email-change-otp.js'
import {
  accountForSignInCode,
  checkVerificationOtp,
  requestPasswordResetOtp,
  resetPasswordWithCode,
  sendVerificationOtp,
  verifyEmailWithCode,
} from './email-otp.js'

const Email = Type.String({ maxLength: 320 })
const Otp = Type.String({ maxLength: 64 })
const OtpTypeSchema = Type.Union(OTP_TYPES.map((type) => Type.Literal(type)))
const Success = Type.Object({ success: Type.Boolean() })
const body = <Fields extends Parameters<typeof Type.Object>[0]>(fields: Fields) =>
  Type.Object(fields, { additionalProperties: false })
const CODE_ERRORS = ['INVALID_OTP', 'OTP_EXPIRED', 'TOO_MANY_ATTEMPTS'] as const

/** The answers of a route that answers `{success: true}`, or one of `codes`. */
const successOr = (...codes: readonly (AuthErrorCode | readonly [AuthErrorCode, number])[]) => ({
  ...errorResponses(...codes),
  200: Success,
})

/**
 * A route that mails a code: limited per recipient, then answered before the code is recorded and
 * mailed (or not), so the answer and its timing say nothing about the address.
 */
const mailsCode = async (
  request: FastifyRequest,
  reply: FastifyReply,
  recipient: string,
  prepare: () => Promise<() => Promise<void>>,
) => {
  await limitRecipient(reply, recipient)
  const mail = await prepare()
  await reply.send({ success: true })
  await mail().catch((error: unknown) => request.log.error({ err: error }, 'email code request failed'))
  return reply
}

/** A signed-in answer of `answerSignIn` (not a refusal it already sent, nor another step's answer). */
const isSignedIn = (answer: unknown): answer is { token: string; user: unknown } =>
  typeof answer === 'object' && answer !== null && 'token' in answer && 'user' in answer

export const emailOtpRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const tags = ['Email OTP']

    app.post(
      '/email-otp/send-verification-otp',
      {
        schema: {
          summary: 'Mail a one-time code (same answer whether or not the address has an account)',
          tags,
          body: body({ email: Email, type: OtpTypeSchema }),
          response: successOr(...POST_ERRORS, 'INVALID_EMAIL', 'INVALID_OTP_TYPE'),
        },
      },
      (request, reply) =>
        mailsCode(request, reply, request.body.email, () =>
          sendVerificationOtp(ctx, originOf(request), request.body),
        ),
    )

    app.post(
      '/email-otp/check-verification-otp',
      {
        schema: {
          summary: 'Check a one-time code without using it (a wrong one counts as an attempt)',
          tags,
          body: body({ email: Email, type: OtpTypeSchema, otp: Otp }),
          response: successOr(...POST_ERRORS, 'INVALID_EMAIL', ...CODE_ERRORS, ['USER_NOT_FOUND', 400]),
        },
      },
      async (request) => {
        await checkVerificationOtp(ctx, originOf(request), request.body)
        return { success: true }
      },
    )

    app.post(
      '/email-otp/verify-email',
      {
        schema: {
          summary: 'Verify the address with a mailed code',
          tags,
          body: body({ email: Email, otp: Otp }),
          response: {
            ...errorResponses(...POST_ERRORS, 'INVALID_EMAIL', ...CODE_ERRORS, ['USER_NOT_FOUND', 400]),
            200: Type.Union([
              Type.Object({
                status: Type.Boolean(),
                token: Type.Union([Type.String(), Type.Null()]),
                user: UserSchema,
              }),
              TwoFactorRedirectSchema,
            ]),
          },
        },
      },
      async (request, reply) => {
        const origin = originOf(request)
        const user = await verifyEmailWithCode(ctx, origin, request.body)
        if (!ctx.config.emailVerification.autoSignInAfterVerification)
          return { status: true, token: null, user: userJson(user) }
        const answer = await answerSignIn(request, reply, ctx, undefined, async () =>
          provenFirstFactor(user, 'email-otp'),
        )
        return isSignedIn(answer) ? { status: true, token: answer.token, user: answer.user } : answer
      },
    )

    app.post(
      '/sign-in/email-otp',
      {
        onRequest: firstLoginOriginHook(ctx.config),
        schema: {
          summary: 'Sign in (or up) with a mailed code',
          tags,
          body: body({
            email: Email,
            otp: Otp,
            name: Type.Optional(Type.String({ maxLength: 256 })),
            image: Type.Optional(Type.String({ maxLength: 2048 })),
            // The OpenID provider's signed authorization request (oauth-provider/oauth-continue.hook.ts).
            oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
          }),
          response: {
            ...errorResponses(
              ...POST_ERRORS,
              'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED',
              ...CODE_ERRORS,
              'BANNED_USER',
            ),
            200: Type.Union([
              Type.Object({ token: Type.String(), user: UserSchema }),
              TwoFactorRedirectSchema,
            ]),
          },
        },
      },
      async (request, reply) => {
        const origin = originOf(request)
        const { email, otp, name, image } = request.body
        const input = { email, otp, name: name ?? null, image: image ?? null }
        const answer = await answerSignIn(request, reply, ctx, undefined, async () =>
          provenFirstFactor(await accountForSignInCode(ctx, origin, input), 'email-otp'),
        )
        return isSignedIn(answer) ? { token: answer.token, user: answer.user } : answer
      },
    )

    for (const path of ['/email-otp/request-password-reset', '/forget-password/email-otp'])
      app.post(
        path,
        {
          schema: {
            summary: 'Mail a password reset code (same answer whether or not the address has an account)',
            tags,
            body: body({ email: Email }),
            response: successOr(...POST_ERRORS),
          },
        },
        (request, reply) =>
          mailsCode(request, reply, request.body.email, () =>
            requestPasswordResetOtp(ctx, originOf(request), request.body.email),
          ),
      )

    app.post(
      '/email-otp/reset-password',
      {
        schema: {
          summary: 'Set a new password with a mailed code (ends every session)',
          tags,
          body: body({ email: Email, otp: Otp, password: Type.String({ maxLength: 4096 }) }),
          response: successOr(...POST_ERRORS, ...CODE_ERRORS, 'PASSWORD_TOO_SHORT', 'PASSWORD_TOO_LONG', [
            'USER_NOT_FOUND',
            400,
          ]),
        },
      },
      async (request) => {
        await resetPasswordWithCode(ctx, originOf(request), request.body)
        return { success: true }
      },
    )

    app.post(
      '/email-otp/request-email-change',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Mail a code to a new address, to move the account there',
          tags,
          body: body({ newEmail: Email, otp: Type.Optional(Otp) }),
          response: successOr(
            ...SIGNED_IN_POST_ERRORS,
            ...CODE_ERRORS,
            'SESSION_NOT_FRESH',
            'INVALID_EMAIL',
            'EMAIL_IS_THE_SAME',
            'CHANGE_EMAIL_WITH_OTP_IS_DISABLED',
            'OTP_IS_REQUIRED_TO_VERIFY_CURRENT_EMAIL',
          ),
        },
      },
      (request, reply) =>
        mailsCode(request, reply, request.body.newEmail, () => {
          const input = { newEmail: request.body.newEmail, otp: request.body.otp ?? null }
          return requestEmailChangeOtp(ctx, originOf(request), authOf(request), input)
        }),
    )

    app.post(
      '/email-otp/change-email',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Move the account to a new address with the code mailed there',
          tags,
          body: body({ newEmail: Email, otp: Otp }),
          response: successOr(
            ...SIGNED_IN_POST_ERRORS,
            ...CODE_ERRORS,
            'SESSION_NOT_FRESH',
            'INVALID_EMAIL',
            'EMAIL_IS_THE_SAME',
            'EMAIL_ALREADY_IN_USE',
            'CHANGE_EMAIL_WITH_OTP_IS_DISABLED',
          ),
        },
      },
      async (request) => {
        await changeEmailWithOtp(ctx, originOf(request), authOf(request), request.body)
        return { success: true }
      },
    )
  }
