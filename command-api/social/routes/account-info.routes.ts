/// account-info: the provider's current information about a linked account; GET ?accountId= as
/// better-auth has it, POST {accountId} as the spec has it.

import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorResponses } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { accountInfo } from '../linked-account-tokens.js'
import { AccountInfoSchema, AccountSelection, TOKEN_ERRORS } from './social.schemas.js'
import type { SocialApp, SocialKit } from './social-route-kit.js'

const errors = errorResponses(
  ...TOKEN_ERRORS,
  'FAILED_TO_GET_ACCESS_TOKEN',
  'ACCESS_TOKEN_NOT_FOUND',
  'FAILED_TO_GET_USER_INFO',
)
const summary = "The provider's current information about a linked account"
const tags = ['Social sign-in']
type Selection = { accountId: string; providerId?: string | undefined; userId?: string | undefined }

export const accountInfoRoutes = (app: SocialApp, { ctx, callerOf }: SocialKit) => {
  const info = async (request: FastifyRequest, reply: FastifyReply, selection: Selection) => {
    const caller = await callerOf(request, reply, selection.userId)
    const { accountId, providerId } = selection
    return accountInfo(ctx, originOf(request), { ...caller, accountId, providerId })
  }
  const response = { ...errors, 200: AccountInfoSchema }
  app.get(
    '/account-info',
    { schema: { summary, tags, querystring: AccountSelection, response } },
    (request, reply) => info(request, reply, request.query),
  )
  const postSchema = { summary: `${summary} (the spec's form)`, tags, body: AccountSelection, response }
  app.post('/account-info', { schema: postSchema }, (request, reply) => info(request, reply, request.body))
}
