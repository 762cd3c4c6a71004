/// Refuses requests that hold a NUL character anywhere: body, query, path parameters, headers and
/// cookies (a `%00` in a query string decodes to one). JSON allows `\u0000` in strings, but
/// PostgreSQL text and jsonb cannot store it: such a value, sealed inside an event, would be written
/// to the log and then fail in the projector on every retry, stopping every read model for good
/// (and a lookup with it is a database error, a 500). Refusing it at the edge keeps it out of both.

import type { FastifyRequest, preValidationHookHandler } from 'fastify'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { DomainError } from '../../domain/shared/errors.js'

// Deeper than any body a route accepts; a deeper one is refused by the schemas anyway.
const MAX_DEPTH = 32

/**
 * The keys down to the first string or key holding a NUL, or null. The path is made only when one
 * is found: every request's headers and body are walked, and almost none holds a NUL.
 */
const nulPath = (value: unknown, depth: number): string[] | null => {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : null
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return null
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (key.includes('\u0000')) return [key.replaceAll('\u0000', '')]
    const found = nulPath(record[key], depth + 1)
    if (found !== null) {
      found.unshift(key)
      return found
    }
  }
  return null
}

/** The path (`name`, `items.0.label`) of the first string or key holding a NUL, or null. */
export const findNul = (value: unknown): string | null => nulPath(value, 0)?.join('.') ?? null

const labelled = (part: string, path: string | null): string | null =>
  path === null ? null : path === '' ? part : `${part}.${path}`

/** Where a request holds a NUL (`body.name`, `query.id`, `headers.x-y`, `cookies.c`), or null. */
const nulIn = (request: FastifyRequest): string | null =>
  labelled('body', findNul(request.body)) ??
  labelled('query', findNul(request.query)) ??
  labelled('params', findNul(request.params)) ??
  labelled('headers', findNul(request.headers)) ??
  labelled('cookies', findNul(request.cookies))

const LABELS: Record<string, string> = {
  body: 'Invalid body parameters',
  query: 'Invalid query parameters',
}

// A callback hook: it runs on every API request, and an async one costs a promise and a microtask turn.
export const nulGuardHook: preValidationHookHandler = (request, _reply, done) => {
  const field = nulIn(request)
  if (field === null) return done()
  const { code, status } = AUTH_ERRORS.VALIDATION_ERROR
  const label = LABELS[field.split('.')[0] ?? ''] ?? 'Invalid request parameters'
  throw new DomainError(code, status, `${label}: [${field}] must not contain a NUL character`)
}
