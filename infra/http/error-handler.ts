/// One place that turns failures into `{code, message}` answers: domain errors with their catalogue
/// status, schema failures as 400 VALIDATION_ERROR naming the field, body-parser failures as clear
/// 4xx, and anything unexpected as a 500 that hides its internals.

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_ERRORS, type AuthErrorCode } from '../../domain/errors.js'
import { isDomainError } from '../../domain/shared/errors.js'
import { isDatabaseUnavailable } from '../db/unavailable.js'

type ValidationIssue = {
  keyword?: string
  instancePath?: string
  message?: string
  params?: { requiredProperties?: string[]; additionalProperties?: string[]; limit?: unknown }
}

const fieldOf = (issue: ValidationIssue, context: string | undefined): string => {
  const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.')
  const missing = issue.params?.requiredProperties?.join(', ')
  const field = missing ? [path, missing].filter(Boolean).join('.') : path
  return `${context ?? 'body'}${field ? `.${field}` : ''}`
}

const validationMessage = (error: FastifyError): string => {
  const issues = (error.validation ?? []) as ValidationIssue[]
  const part = error.validationContext === 'querystring' ? 'query' : error.validationContext
  const label = part === 'query' ? 'Invalid query parameters' : 'Invalid body parameters'
  const details = issues
    .slice(0, 3)
    .map((issue) => `[${fieldOf(issue, part)}] ${issue.message ?? 'is invalid'}`)
  return details.length > 0 ? `${label}: ${details.join('; ')}` : label
}

/** Fastify's own 4xx errors (body parser, content type) mapped to our codes. */
const FASTIFY_CODES: Record<string, AuthErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_ERROR',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BODY_MUST_BE_AN_OBJECT',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_ERROR',
}

/**
 * The field a validation failure is about, as a form knows it (`name`, `address.city`), the
 * schema rule it broke and that rule's number, so a client can say "at most 256 characters" next
 * to the right field. Taken from the first issue (the schema-false echo of an unknown property is
 * skipped: its `additionalProperties` issue names the property).
 */
const structuredIssue = (error: FastifyError) => {
  const issue = ((error.validation ?? []) as ValidationIssue[]).find((found) => found.keyword !== 'boolean')
  if (!issue) return {}
  const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.')
  const named = issue.params?.requiredProperties?.[0] ?? issue.params?.additionalProperties?.[0]
  const field = [path, named].filter(Boolean).join('.')
  const limit = issue.params?.limit
  return {
    ...(field ? { field } : {}),
    ...(issue.keyword ? { rule: issue.keyword } : {}),
    ...(typeof limit === 'number' ? { limit } : {}),
  }
}

const send = (reply: FastifyReply, status: number, code: string, message: string, extra: object = {}) =>
  reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send({ code, message, ...extra })

export const installErrorHandling = (app: FastifyInstance): void => {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isDomainError(error)) {
      if (error.status === 429 && reply.getHeader('x-retry-after') === undefined)
        reply.header('x-retry-after', '10')
      // As the read-your-writes 503 says it: the read models are seconds behind, not down.
      if (error.code === 'READ_MODELS_BEHIND') reply.header('retry-after', '1')
      return send(reply, error.status, error.code, error.message)
    }
    if (error.validation)
      return send(reply, 400, 'VALIDATION_ERROR', validationMessage(error), structuredIssue(error))
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined
    if (mapped) {
      const { status, message } = AUTH_ERRORS[mapped]
      const detail = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'Malformed JSON body' : message
      return send(reply, status, mapped, detail)
    }
    if (error.statusCode === 429) {
      const { status, message } = AUTH_ERRORS.TOO_MANY_REQUESTS
      return send(reply, status, 'TOO_MANY_REQUESTS', message)
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      return send(reply, error.statusCode, 'BAD_REQUEST', error.message)
    // The database is down or restarting: say so (a load balancer and a client may retry), never a 500.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable')
      reply.header('retry-after', '5')
      return send(
        reply,
        503,
        'DATABASE_UNAVAILABLE',
        'The service cannot reach its database. Try again in a moment.',
      )
    }
    request.log.error({ err: error }, 'unhandled error')
    return send(reply, 500, 'INTERNAL_SERVER_ERROR', AUTH_ERRORS.INTERNAL_SERVER_ERROR.message)
  })
}
