/// GET and POST /callback/:id: the provider's redirect back, which finishes a sign-in or a link.

import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { gateSignIn } from '../../two-factor/gated-sign-in.js'
import { finishSocialFlow } from '../social-flow.js'
import { ProviderId } from './social.schemas.js'
import { type SocialApp, type SocialKit, socialFirstFactor } from './social-route-kit.js'

const schema = {
  summary: "Finish a social sign-in or link: the provider's redirect back",
  tags: ['Social sign-in'],
  params: Type.Object({ id: ProviderId }),
  response: { ...errorResponses(...ANY_ROUTE_ERRORS), 302: Type.Null({ description: 'Redirect' }) },
}

export const callbackRoutes = (app: SocialApp, kit: SocialKit) => {
  const { ctx } = kit
  const callback = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const params = request.query as Record<string, string>
    const flow = { providerId: request.params.id, params, stateCookie: request.cookies[kit.stateCookie] }
    const outcome = await finishSocialFlow(ctx, originOf(request), flow)
    kit.clearStateCookie(reply)
    if (!outcome.signedIn) return reply.redirect(outcome.location, 302)
    const gated = await gateSignIn(ctx, request, reply, socialFirstFactor(outcome.signedIn))
    // The second step first, as after a password: the browser goes to its page, with no session.
    if (gated.kind === 'second-step')
      return reply.redirect(new URL('/two-factor', ctx.config.baseUrl).toString(), 302)
    return reply.redirect(outcome.location, 302)
  }
  app.get(
    '/callback/:id',
    { schema: { ...schema, querystring: Type.Record(Type.String(), Type.String()) } },
    callback,
  )
  const formSchema = {
    ...schema,
    summary: 'Finish a social sign-in (form_post): continues as a GET',
    body: Type.Optional(Type.Record(Type.String(), Type.String())),
  }
  // The form arrives cross-site, without the state cookie (SameSite=Lax): answer with the same
  // parameters as a GET, which the browser sends with its cookies.
  app.post('/callback/:id', { schema: formSchema }, async (request, reply) => {
    const query = new URLSearchParams({ ...(request.query as object), ...(request.body ?? {}) })
    return reply.redirect(
      `${ctx.config.basePath}/callback/${encodeURIComponent(request.params.id)}?${query}`,
      302,
    )
  })
}
