/// POST /link-social: links another provider account to the signed-in user (redirect flow or id token).

import { Type } from 'typebox'
import { authOf } from '../../../http/sessions/require-session.js'
import { errorResponses, SIGNED_IN_POST_ERRORS } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { linkWithIdToken, startSocialFlow } from '../social-flow.js'
import { LinkedSchema, LinkSocialBody, RedirectSchema } from './social.schemas.js'
import type { SocialApp, SocialKit } from './social-route-kit.js'

const schema = {
  summary: 'Link another social account to the signed-in user',
  tags: ['Social sign-in'],
  body: LinkSocialBody,
  response: {
    ...errorResponses(
      ...SIGNED_IN_POST_ERRORS,
      'PROVIDER_NOT_FOUND',
      'INVALID_CALLBACK_URL',
      'INVALID_ERROR_CALLBACK_URL',
      'ID_TOKEN_NOT_SUPPORTED',
      'SOCIAL_ACCOUNT_ALREADY_LINKED',
      'LINKING_NOT_ALLOWED',
      'LINKING_DIFFERENT_EMAILS_NOT_ALLOWED',
      'LINKING_FAILED',
    ),
    200: Type.Union([LinkedSchema, RedirectSchema]),
  },
}

export const linkSocialRoute = (app: SocialApp, { ctx, requireSession, setStateCookie }: SocialKit) =>
  app.post('/link-social', { preHandler: requireSession, schema }, async (request, reply) => {
    const { user } = authOf(request)
    const link = { userId: user.id, email: user.email }
    const { body } = request
    if (body.idToken) {
      await linkWithIdToken(ctx, originOf(request), link, body.provider, body.idToken)
      return { url: '', status: true, redirect: false }
    }
    const started = await startSocialFlow(ctx, body, link)
    setStateCookie(reply, started.cookie)
    if (!body.disableRedirect) reply.header('location', started.url)
    return { url: started.url, redirect: !body.disableRedirect }
  })
