import { describe, expect, it } from 'vitest'
import type { ApiError } from './api-error.js'
import { toApiError } from './api-error.js'
import { placeError } from './form-errors.js'
import { messageFor } from './messages.js'

const apiError = (code: string, overrides: Partial<ApiError> = {}): ApiError => ({
  status: 400,
  code,
  message: 'server wording',
  retryAfter: null,
  ...overrides,
})

describe('messageFor', () => {
  it('words an error by its code, whatever message text the server sent', () => {
    const a = messageFor(apiError('INVALID_EMAIL', { message: 'Invalid email' }))
    const b = messageFor(apiError('INVALID_EMAIL', { message: 'Ungültige E-Mail' }))
    expect(a).toBe(b)
    expect(a).toContain('valid email address')
    // Same server text, different code: different words.
    expect(messageFor(apiError('INVALID_PASSWORD', { message: 'Invalid email' }))).not.toBe(a)
  })

  it('explains the password rules for the length codes', () => {
    expect(messageFor(apiError('PASSWORD_TOO_SHORT'))).toBe('Use at least 8 characters.')
    expect(messageFor(apiError('PASSWORD_TOO_LONG'))).toBe('Use at most 128 characters.')
  })

  it('tells how long to wait on any 429, from X-Retry-After when given', () => {
    expect(messageFor(apiError('RATE_LIMITED', { status: 429, retryAfter: 7 }))).toBe(
      'Too many attempts. Wait 7 seconds and try again.',
    )
    expect(messageFor(apiError('SOMETHING_ELSE', { status: 429, retryAfter: 1 }))).toContain('Wait 1 second ')
    expect(messageFor(apiError('RATE_LIMITED', { status: 429 }))).toBe(
      'Too many attempts. Wait a moment and try again.',
    )
  })

  it('never shows raw server text for unknown codes', () => {
    const text = messageFor(apiError('BRAND_NEW_CODE', { message: 'internal detail' }))
    expect(text).toContain('BRAND_NEW_CODE')
    expect(text).not.toContain('internal detail')
    expect(messageFor(apiError('X', { status: 503 }))).toContain('on our side')
    expect(messageFor(new Error('boom'))).toBe('Something went wrong. Please try again.')
  })
})

describe('toApiError', () => {
  it('reads the code, the message and X-Retry-After', () => {
    const response = new Response(null, { status: 429, headers: { 'X-Retry-After': '12' } })
    const error = toApiError({ status: 429, data: { code: 'RATE_LIMITED', message: 'slow down' } }, response)
    expect(error).toEqual({ status: 429, code: 'RATE_LIMITED', message: 'slow down', retryAfter: 12 })
  })

  it('names a status without a code, and a failed connection', () => {
    expect(toApiError({ status: 502, data: '<html>' }).code).toBe('HTTP_502')
    expect(toApiError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toMatchObject({
      status: 'network',
      code: 'NETWORK_ERROR',
    })
  })
})

describe('placeError', () => {
  it('puts a known code under its field and anything else at the top of the form', () => {
    const fields = { INVALID_EMAIL: 'email' } as const
    expect(placeError(apiError('INVALID_EMAIL'), fields)).toEqual({
      form: null,
      fields: { email: messageFor(apiError('INVALID_EMAIL')) },
    })
    expect(placeError(apiError('VALIDATION_ERROR'), fields).form).toContain('not in the expected form')
    // A rate limit concerns the whole form even for a code mapped to a field.
    expect(placeError(apiError('INVALID_EMAIL', { status: 429 }), fields).form).toContain('Too many attempts')
  })
})
