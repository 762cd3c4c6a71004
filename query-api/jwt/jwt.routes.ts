/// GET /token (a JWT for the signed-in user) and GET /jwks (the public keys that verify it), as
/// better-auth's jwt plugin answers them. Both reach the keys through `ctx.jwt` (jwt-issuer.ts).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { userJson } from '../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import type { QueryContext } from '../context.js'

const PublishedKeySchema = Type.Object(
  {
    kid: Type.String(),
    alg: Type.String(),
    kty: Type.String(),
    crv: Type.Optional(Type.String()),
    x: Type.Optional(Type.String()),
    y: Type.Optional(Type.String()),
    n: Type.Optional(Type.String()),
    e: Type.Optional(Type.String()),
  },
  // The response schema drops any other member: a private one can never leave through here.
  { additionalProperties: false },
)

// Relying parties fetch the set again when a token names a kid they lack; a new key signs from the
// moment it is created, so caches must not hold the set for long.
const JWKS_CACHE_CONTROL = 'public, max-age=60'

export const jwtRoutes =
  (ctx: QueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { jwt } = ctx
    if (!jwt) return
    const { requireSession } = sessionGuards(ctx)

    app.get(
      '/token',
      {
        preHandler: requireSession,
        schema: {
          summary: "A JWT for the signed-in user, signed with the key set's current key",
          tags: ['JWT'],
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED'),
            200: Type.Object({ token: Type.String() }),
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store')
        return { token: await jwt.tokenFor(userJson(authOf(request).user)) }
      },
    )

    app.get(
      '/jwks',
      {
        schema: {
          summary: 'The public keys that verify Tessera JWTs (JWKS)',
          tags: ['JWT'],
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS),
            200: Type.Object({ keys: Type.Array(PublishedKeySchema) }),
          },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', JWKS_CACHE_CONTROL)
        return jwt.publicKeySet()
      },
    )
  }
