/// `emailOTP.sendVerificationOnSignUp`: a new email-and-password account is mailed a verification
/// code (instead of waiting for someone to ask), as better-auth's emailOTP hook after `/sign-up`
/// does. Runs once the sign-up's answer has gone out, so it costs the answer nothing.

import type { FastifyRequest, onResponseHookHandler } from 'fastify'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import { issueCode } from './otp-codes.js'

const SIGN_UP_ROUTES = ['/sign-up/email']

const mailCode = async (ctx: CommandContext, request: FastifyRequest, email: string): Promise<void> => {
  try {
    const user = await ctx.lookups.users.byEmail(email.trim().toLowerCase())
    if (!user || user.email_verified) return
    await issueCode(ctx, originOf(request), { otpType: 'email-verification', email: user.email }, user.id)
  } catch (error) {
    request.log.error({ err: error }, 'verification code after sign-up failed')
  }
}

// A callback hook: it runs after every API answer, and an async one costs each a promise and a
// microtask turn; only a sign-up's waits for its mail.
export const verificationCodeOnSignUp =
  (ctx: CommandContext): onResponseHookHandler =>
  (request, reply, done) => {
    if (!ctx.config.emailOTP.sendVerificationOnSignUp || reply.statusCode !== 200) return done()
    const route = request.routeOptions.url ?? ''
    if (!SIGN_UP_ROUTES.some((path) => route === `${ctx.config.basePath}${path}`)) return done()
    const email = (request.body as { email?: unknown } | undefined)?.email
    if (typeof email !== 'string') return done()
    void mailCode(ctx, request, email).then(() => done())
  }
