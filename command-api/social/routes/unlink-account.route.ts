/// POST /unlink-account: unlinks a social account or the password, never the last way in.

import { Type } from 'typebox'
import { StatusSchema } from '../../../http/presenters/presenters.js'
import { authOf } from '../../../http/sessions/require-session.js'
import { errorResponses, SIGNED_IN_POST_ERRORS } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { unlinkAccount } from '../unlink-account.js'
import { ProviderId } from './social.schemas.js'
import type { SocialApp, SocialKit } from './social-route-kit.js'

const schema = {
  summary:
    'Unlink an account, a social one or the password ("credential"), not the last one; needs a fresh session',
  tags: ['Social sign-in'],
  body: Type.Object(
    { accountId: Type.String({ minLength: 1, maxLength: 256 }), providerId: Type.Optional(ProviderId) },
    { additionalProperties: false },
  ),
  response: {
    ...errorResponses(
      ...SIGNED_IN_POST_ERRORS,
      'SESSION_NOT_FRESH',
      'FAILED_TO_UNLINK_LAST_ACCOUNT',
      'ACCOUNT_NOT_FOUND',
    ),
    200: StatusSchema,
  },
}

export const unlinkAccountRoute = (app: SocialApp, { ctx, requireSession }: SocialKit) =>
  app.post('/unlink-account', { preHandler: requireSession, schema }, async (request) => {
    const { session, user } = authOf(request)
    const asking = { userId: user.id, startedAt: new Date(session.created_at) }
    await unlinkAccount(ctx, originOf(request), asking, request.body)
    return { status: true }
  })
