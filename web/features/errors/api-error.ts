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
}

export const NETWORK_ERROR = 'NETWORK_ERROR'
export const UNEXPECTED_RESPONSE = 'UNEXPECTED_RESPONSE'

const readBody = (data: unknown): { code: string | null; message: string } => {
  if (typeof data !== 'object' || data === null) return { code: null, message: '' }
  const code = 'code' in data && typeof data.code === 'string' && data.code !== '' ? data.code : null
  const message = 'message' in data && typeof data.message === 'string' ? data.message : ''
  return { code, message }
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
