/// Route documentation helpers: the error answers a route can give, as response schemas that the
/// OpenAPI document (app/server/api-reference.ts) shows with their codes. Every error body has the
/// one shape the error handler sends.

import { Type } from 'typebox'
import { AUTH_ERRORS, type AuthErrorCode } from '../../domain/errors.js'

/** The body of every error answer; `description` says which codes it carries. */
export const errorBody = (description: string) =>
  Type.Object(
    {
      code: Type.String(),
      message: Type.String(),
      // VALIDATION_ERROR only: the field, the schema rule it broke and that rule's number.
      field: Type.Optional(Type.String()),
      rule: Type.Optional(Type.String()),
      limit: Type.Optional(Type.Number()),
    },
    { description },
  )

/**
 * Response schemas for the catalogue errors a route answers, grouped by status:
 * `response: { 200: Ok, ...errorResponses('UNAUTHORIZED', 'INVALID_PASSWORD') }`. A pair
 * `['INVALID_TOKEN', 404]` names an error the route answers with another status than the catalogue's.
 */
export const errorResponses = (
  ...codes: readonly (AuthErrorCode | readonly [AuthErrorCode, number])[]
): { [status: number]: ReturnType<typeof errorBody> } => {
  const byStatus = new Map<number, AuthErrorCode[]>()
  for (const entry of codes) {
    const [code, status] = typeof entry === 'string' ? [entry, AUTH_ERRORS[entry].status] : entry
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return Object.fromEntries(
    [...byStatus].map(([status, grouped]) => [
      status,
      errorBody(grouped.map((code) => `\`${code}\`: ${AUTH_ERRORS[code].message}`).join('; ')),
    ]),
  )
}

/** Answers any route may give: a malformed body or query (400) and too many requests (429). */
export const ANY_ROUTE_ERRORS = [
  'VALIDATION_ERROR',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly AuthErrorCode[]

/** A state-changing route also checks the Origin of cookie-bearing requests. */
export const POST_ERRORS = [
  ...ANY_ROUTE_ERRORS,
  'INVALID_ORIGIN',
  'MISSING_OR_NULL_ORIGIN',
] as const satisfies readonly AuthErrorCode[]

/** A state-changing route that needs a signed-in caller. */
export const SIGNED_IN_POST_ERRORS = [
  ...POST_ERRORS,
  'UNAUTHORIZED',
] as const satisfies readonly AuthErrorCode[]
