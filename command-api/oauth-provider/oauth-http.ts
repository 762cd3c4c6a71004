/// What every OpenID provider route shares at the HTTP edge: OAuth's error shape
/// (`{error, error_description}`, RFC 6749 5.2, as better-auth's oauth-provider answers), form
/// bodies (the token, revocation and introspection endpoints take
/// `application/x-www-form-urlencoded`), and answers that must not be cached.

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { isDomainError } from '../../domain/shared/errors.js'

export const OAuthErrorSchema = Type.Object({
  error: Type.String(),
  error_description: Type.Optional(Type.String()),
})

/**
 * The guards' refusals (a session's 401, a server key sent from a browser's 403) keep the API's
 * usual `{code, message}`; OAuth's own are `{error}`. Either may come with any of these statuses.
 */
const ErrorSchema = Type.Union([
  OAuthErrorSchema,
  Type.Object({ code: Type.String(), message: Type.String() }),
])

export const oauthErrorResponses = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
}

/** Installs form parsing and the OAuth error shape on the routes of one plugin. */
export const oauthEdge = (app: FastifyInstance): void => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 65_536 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store')
    if (isDomainError(error)) {
      if (error.status === 401 && error.code === 'invalid_client') reply.header('www-authenticate', 'Basic')
      // Catalogue errors (a session guard's 401) keep the API's usual shape.
      if (error.code !== error.code.toLowerCase())
        return reply.status(error.status).send({ code: error.code, message: error.message })
      return reply.status(error.status).send({ error: error.code, error_description: error.message })
    }
    if (error.validation)
      return reply.status(400).send({ error: 'invalid_request', error_description: error.message })
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      return reply
        .status(error.statusCode)
        .send({ error: 'invalid_request', error_description: error.message })
    request.log.error({ err: error }, 'unhandled error')
    return reply.status(500).send({ error: 'server_error', error_description: 'Internal server error' })
  })
}

export const noStore = (reply: FastifyReply) =>
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache')

/** The bearer token of `Authorization`, or null. */
export const bearerOf = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization
  if (!header) return null
  const [scheme, token] = header.split(' ')
  return scheme?.toLowerCase() === 'bearer' && token ? token : null
}
