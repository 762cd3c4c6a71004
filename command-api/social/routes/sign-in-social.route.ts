/// POST /sign-in/social: starts the provider's redirect flow, or signs in with its id token.

import { Type } from 'typebox'
import { userJson } from '../../../http/presenters/presenters.js'
import { errorResponses, POST_ERRORS } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { TwoFactorRedirectSchema } from '../../email-password/signed-in-answer.js'
import { gateSignIn } from '../../two-factor/gated-sign-in.js'
import { signInWithIdToken, startSocialFlow } from '../social-flow.js'
import { RedirectSchema, SignedInSchema, SignInSocialBody } from './social.schemas.js'
import { type SocialApp, type SocialKit, socialFirstFactor } from './social-route-kit.js'

const schema = {
  summary: 'Start a sign-in with a social provider, or sign in with its id token',
  tags: ['Social sign-in'],
  body: SignInSocialBody,
  response: {
    ...errorResponses(
      ...POST_ERRORS,
      'PROVIDER_NOT_FOUND',
      'CALLBACK_URL_REQUIRED',
      'INVALID_CALLBACK_URL',
      'INVALID_ERROR_CALLBACK_URL',
      'INVALID_NEW_USER_CALLBACK_URL',
      'ID_TOKEN_NOT_SUPPORTED',
      'FAILED_TO_GET_USER_INFO',
      'USER_EMAIL_NOT_FOUND',
    ),
    // Most specific first: fast-json-stringify writes the first branch an answer fits, and a
    // signed-in answer with a `url` fits the redirect too (it would lose its token and user).
    200: Type.Union([SignedInSchema, TwoFactorRedirectSchema, RedirectSchema]),
  },
}

export const signInSocialRoute = (app: SocialApp, { ctx, setStateCookie }: SocialKit) =>
  app.post('/sign-in/social', { schema }, async (request, reply) => {
    const { body } = request
    if (!body.idToken) {
      const started = await startSocialFlow(ctx, body, null)
      setStateCookie(reply, started.cookie)
      if (!body.disableRedirect) reply.header('location', started.url)
      return { url: started.url, redirect: !body.disableRedirect }
    }
    const signIn = { requestSignUp: body.requestSignUp === true, callbackURL: body.callbackURL ?? null }
    const result = await signInWithIdToken(ctx, originOf(request), body.provider, body.idToken, signIn)
    const outcome = await gateSignIn(ctx, request, reply, socialFirstFactor(result))
    if (outcome.kind === 'second-step')
      return { twoFactorRedirect: true as const, twoFactorMethods: outcome.methods }
    const url = body.callbackURL ? { url: body.callbackURL } : {}
    return { redirect: false, token: outcome.session.token, ...url, user: userJson(result.user) }
  })
