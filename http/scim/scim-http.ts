/// What every SCIM route shares at the edge (RFC 7644): the `application/scim+json` media type,
/// and errors in the SCIM `Error` schema (`schemas`, `status` as a string, `scimType`, `detail`)
/// rather than Tessera's `{code, message}`, since SCIM clients (Okta, Entra ID) read only those.

import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { isDomainError } from '../../domain/shared/errors.js'

export const SCIM_MEDIA_TYPE = 'application/scim+json'
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'
export const SCIM_BASE = '/scim/v2'

/** An answer in the SCIM Error schema, thrown by SCIM routes. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: string,
  ) {
    super(detail)
  }
}

/** Domain codes that RFC 7644 names a `scimType` for. */
const SCIM_TYPES: Record<string, string> = {
  SCIM_USER_ALREADY_EXISTS: 'uniqueness',
  SCIM_GROUP_ALREADY_EXISTS: 'uniqueness',
  SCIM_GROUP_DISPLAY_NAME_EMPTY: 'invalidValue',
  SCIM_GROUP_MEMBER_INVALID: 'invalidValue',
  SCIM_GROUP_TOO_MANY_MEMBERS: 'invalidValue',
  VALIDATION_ERROR: 'invalidValue',
  INVALID_EMAIL: 'invalidValue',
}

export const ScimErrorSchema = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    status: Type.String(),
    scimType: Type.Optional(Type.String()),
    detail: Type.Optional(Type.String()),
  },
  { description: 'RFC 7644 Error: status as a string, scimType where the RFC names one, detail' },
)

/** The error answers a SCIM route documents. */
export const scimErrorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ScimErrorSchema]))

const send = (reply: FastifyReply, status: number, detail: string, scimType?: string) =>
  reply
    .code(status)
    .type(SCIM_MEDIA_TYPE)
    .send({ schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail })

/**
 * Makes a route plugin speak SCIM: it reads `application/scim+json` bodies as JSON and answers every
 * failure in the SCIM Error schema. Scoped to the plugin (Fastify encapsulation).
 */
export const speakScim = (app: FastifyInstance): void => {
  app.addContentTypeParser(SCIM_MEDIA_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(String(body)))
    } catch {
      done(new ScimError(400, 'The request body is not valid JSON', 'invalidSyntax'))
    }
  })
  app.addHook('onSend', async (_request, reply, payload) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
      reply.type(SCIM_MEDIA_TYPE)
    return payload
  })
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof ScimError) return send(reply, error.status, error.detail, error.scimType)
    if (isDomainError(error)) return send(reply, error.status, error.message, SCIM_TYPES[error.code])
    if (error.validation)
      return send(reply, 400, `${error.validationContext ?? 'request'} ${error.message}`, 'invalidValue')
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500
    if (status === 500) reply.log.error(error)
    return send(
      reply,
      status,
      status === 500 ? 'Internal server error' : error.message,
      status === 400 ? 'invalidSyntax' : undefined,
    )
  })
}
