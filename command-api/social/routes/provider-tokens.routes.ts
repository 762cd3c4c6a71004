/// POST /get-access-token and POST /refresh-token: a linked account's provider tokens, for the
/// signed-in user or for a backend with a server key that names the user.

import { errorResponses } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { getAccessToken, refreshAccessToken } from '../linked-account-tokens.js'
import { AccessTokenSchema, AccountSelection, RefreshedSchema, TOKEN_ERRORS } from './social.schemas.js'
import { iso, type SocialApp, type SocialKit } from './social-route-kit.js'

const accessSchema = {
  summary: "A linked account's access token, refreshed at the provider when it expires",
  tags: ['Social sign-in'],
  body: AccountSelection,
  response: { ...errorResponses(...TOKEN_ERRORS, 'FAILED_TO_GET_ACCESS_TOKEN'), 200: AccessTokenSchema },
}

const refreshSchema = {
  summary: "Refresh a linked account's tokens at the provider",
  tags: ['Social sign-in'],
  body: AccountSelection,
  response: {
    ...errorResponses(...TOKEN_ERRORS, 'REFRESH_TOKEN_NOT_FOUND', 'FAILED_TO_REFRESH_ACCESS_TOKEN'),
    200: RefreshedSchema,
  },
}

export const providerTokenRoutes = (app: SocialApp, { ctx, callerOf }: SocialKit) => {
  app.post('/get-access-token', { schema: accessSchema }, async (request, reply) => {
    const { accountId, providerId, userId } = request.body
    const caller = await callerOf(request, reply, userId)
    const answer = await getAccessToken(ctx, originOf(request), { ...caller, accountId, providerId })
    return { ...answer, accessTokenExpiresAt: iso(answer.accessTokenExpiresAt) }
  })
  app.post('/refresh-token', { schema: refreshSchema }, async (request, reply) => {
    const { accountId, providerId, userId } = request.body
    const caller = await callerOf(request, reply, userId)
    const answer = await refreshAccessToken(ctx, originOf(request), { ...caller, accountId, providerId })
    const refreshTokenExpiresAt = iso(answer.refreshTokenExpiresAt) ?? null
    return { ...answer, accessTokenExpiresAt: iso(answer.accessTokenExpiresAt), refreshTokenExpiresAt }
  })
}
