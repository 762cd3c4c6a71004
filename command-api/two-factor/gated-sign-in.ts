/// The gate at the HTTP edge: reads this device's trust cookie, passes the sign-in through
/// `startSignIn`, and sets what the outcome needs: the session cookie (and the renewed trust), or
/// the short-lived two-factor cookie and no session. Sign-ins that answer JSON go through
/// `answerSignIn`; those that end in a redirect (social callbacks, mailed links) call this and
/// send the person to the second-step page when `kind` is `second-step`.

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import { type FirstFactor, type SignInOutcome, startSignIn } from './sign-in-gate.js'
import { clearTwoFactorCookie, readTwoFactorCookie, setTwoFactorCookie } from './two-factor-cookies.js'

/** A first factor passed: who, and how long their session should last. No session yet. */
export type FirstFactorPassed = { user: KnownUser; rememberMe: boolean; factor: FirstFactor }

export const gateSignIn = async (
  ctx: CommandContext,
  request: FastifyRequest,
  reply: FastifyReply,
  { user, rememberMe, factor }: FirstFactorPassed,
): Promise<SignInOutcome> => {
  const settings = ctx.sessions.cookieSettings
  const { twoFactorCookieMaxAge, trustDeviceMaxAge } = ctx.config.twoFactor
  const trust = readTwoFactorCookie(request, 'trust_device', settings)
  const trustedDeviceToken = trust?.userId === user.id ? trust.token : null
  const outcome = await startSignIn(ctx, originOf(request), {
    userId: user.id,
    rememberMe,
    factor,
    trustedDeviceToken,
  })
  if (outcome.kind === 'second-step') {
    setTwoFactorCookie(
      reply,
      'two_factor',
      { userId: user.id, token: outcome.challengeToken },
      twoFactorCookieMaxAge,
      settings,
    )
    // A trust cookie that did not hold is worth nothing: better-auth drops it too.
    if (trustedDeviceToken !== null) clearTwoFactorCookie(reply, 'trust_device', settings)
    return outcome
  }
  setSessionCookie(reply, outcome.session, settings)
  if (outcome.renewedTrustToken !== null)
    setTwoFactorCookie(
      reply,
      'trust_device',
      { userId: user.id, token: outcome.renewedTrustToken },
      trustDeviceMaxAge,
      settings,
    )
  return outcome
}
