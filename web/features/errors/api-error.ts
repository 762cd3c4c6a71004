import type { FetchBaseQueryError } from '@reduxjs/toolkit/query'

/// Every failed request reaches components in this one shape, whatever went wrong on the way.
export type ApiError = {
  /** HTTP status, or 'network' when no answer arrived at all. */
  status: number | 'network'
  /** The API's error code; components and messages switch on this, never on `message`. */
  code: string
  /** The server's own wording, kept for logs and as a last resort; never matched against. */
  message: string
  /** Seconds to wait before retrying, from `X-Retry-After`, when the server said so. */
  retryAfter: number | null
  /** For VALIDATION_ERROR: the request field it concerns ('name'), when the server names one. */
  field?: string | null
  /** For VALIDATION_ERROR: the broken rule and its limit, when the server says (`rule`, `limit`). */
  rule?: { kind: string; limit: number | null } | null
}

export const NETWORK_ERROR = 'NETWORK_ERROR'
export const UNEXPECTED_RESPONSE = 'UNEXPECTED_RESPONSE'

type Body = { code: string | null; message: string; field: string | null; rule: ApiError['rule'] }

const stringIn = (data: object, key: string): string | null => {
  const value: unknown = Reflect.get(data, key)
  return typeof value === 'string' && value !== '' ? value : null
}

// The server names the field of a schema failure as a path in brackets, "[body.name] must NOT…";
// a `field` property, when the server sends one, wins. The path is structure, not wording.
const FIELD_PATH = /\[(?:body|query)\.([A-Za-z0-9_]+)/

const readRule = (data: object): ApiError['rule'] => {
  const kind = stringIn(data, 'rule')
  if (kind === null) return null
  const limit: unknown = Reflect.get(data, 'limit')
  return { kind, limit: typeof limit === 'number' ? limit : null }
}

const readBody = (data: unknown): Body => {
  if (typeof data !== 'object' || data === null) return { code: null, message: '', field: null, rule: null }
  const message = stringIn(data, 'message') ?? ''
  const field = stringIn(data, 'field') ?? FIELD_PATH.exec(message)?.[1] ?? null
  return { code: stringIn(data, 'code'), message, field, rule: readRule(data) }
}

const readRetryAfter = (response: Response | undefined): number | null => {
  const value = response?.headers.get('X-Retry-After') ?? response?.headers.get('Retry-After')
  if (value === null || value === undefined) return null
  const seconds = Number.parseInt(value, 10)
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null
}

export const toApiError = (error: FetchBaseQueryError, response?: Response): ApiError => {
  if (typeof error.status === 'number') {
    const body = readBody(error.data)
    return {
      status: error.status,
      code: body.code ?? `HTTP_${error.status}`,
      message: body.message,
      retryAfter: readRetryAfter(response),
      ...(body.field ? { field: body.field } : {}),
      ...(body.rule ? { rule: body.rule } : {}),
    }
  }
  if (error.status === 'PARSING_ERROR') {
    // A 2xx/4xx body that is not JSON (a proxy page, say): report the status we did get.
    return { status: error.originalStatus, code: UNEXPECTED_RESPONSE, message: '', retryAfter: null }
  }
  return { status: 'network', code: NETWORK_ERROR, message: '', retryAfter: null }
}

export const isApiError = (value: unknown): value is ApiError =>
  typeof value === 'object' &&
  value !== null &&
  'code' in value &&
  typeof value.code === 'string' &&
  'status' in value
