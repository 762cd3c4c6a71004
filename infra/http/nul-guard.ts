/// Refuses requests that hold a NUL character anywhere: body, query, path parameters, headers and
/// cookies (a `%00` in a query string decodes to one). JSON allows `\u0000` in strings, but
/// PostgreSQL text and jsonb cannot store it: such a value, sealed inside an event, would be written
/// to the log and then fail in the projector on every retry, stopping every read model for good
/// (and a lookup with it is a database error, a 500). Refusing it at the edge keeps it out of both.

import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { DomainError } from '../../domain/shared/errors.js'

// Deeper than any body a route accepts; a deeper one is refused by the schemas anyway.
const MAX_DEPTH = 32

/** The path (`name`, `items.0.label`) of the first string or key holding a NUL, or null. */
export const findNul = (value: unknown, path: readonly string[] = [], depth = 0): string | null => {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : null
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return null
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '')].join('.')
    const found = findNul(item, [...path, key], depth + 1)
    if (found !== null) return found
  }
  return null
}

/** Where a request holds a NUL (`body.name`, `query.id`, `headers.x-y`, `cookies.c`), or null. */
const nulIn = (request: FastifyRequest): string | null => {
  const parts: [string, unknown][] = [
    ['body', request.body],
    ['query', request.query],
    ['params', request.params],
    ['headers', request.headers],
    ['cookies', request.cookies],
  ]
  for (const [part, value] of parts) {
    const path = findNul(value)
    if (path !== null) return path === '' ? part : `${part}.${path}`
  }
  return null
}

const LABELS: Record<string, string> = {
  body: 'Invalid body parameters',
  query: 'Invalid query parameters',
}

export const nulGuardHook: preValidationAsyncHookHandler = async (request) => {
  const field = nulIn(request)
  if (field === null) return
  const { code, status } = AUTH_ERRORS.VALIDATION_ERROR
  const label = LABELS[field.split('.')[0] ?? ''] ?? 'Invalid request parameters'
  throw new DomainError(code, status, `${label}: [${field}] must not contain a NUL character`)
}
