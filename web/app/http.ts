import { useCallback, useState } from 'react'
import { toApiError } from '../features/errors/api-error.js'

/// The API without the store, for the pages a visit usually starts on (sign-in, sign-up, forgot
/// and reset password): they load before, and without, Redux Toolkit and RTK Query, which only the
/// account area and the pages after a mailed link need (StoreBoundary). Failures are thrown as the
/// same ApiError the store's endpoints give, so pages place them the same way.

type Init = { method?: 'GET' | 'POST'; body?: unknown }

const parse = (text: string): { ok: true; data: unknown } | { ok: false } => {
  if (text === '') return { ok: true, data: null }
  try {
    return { ok: true, data: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** A JSON request to /api/auth; resolves with the answer's body, throws an ApiError. */
export const request = async <T>(path: string, init: Init = {}): Promise<T> => {
  let response: Response
  try {
    response = await fetch(`/api/auth${path}`, {
      method: init.method ?? 'GET',
      credentials: 'include',
      ...(init.body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) }),
    })
  } catch (error) {
    throw toApiError({ status: 'FETCH_ERROR', error: String(error) })
  }
  const text = await response.text()
  const body = parse(text)
  if (!body.ok) {
    throw toApiError({ status: 'PARSING_ERROR', originalStatus: response.status, data: text, error: '' })
  }
  if (!response.ok) throw toApiError({ status: response.status, data: body.data }, response)
  return body.data as T
}

/** A request a form sends, with whether it is on its way (to keep it from being sent twice). */
export const useAction = <Arg, Result>(
  action: (arg: Arg) => Promise<Result>,
): [(arg: Arg) => Promise<Result>, { isLoading: boolean }] => {
  const [isLoading, setLoading] = useState(false)
  const run = useCallback(
    async (arg: Arg) => {
      setLoading(true)
      try {
        return await action(arg)
      } finally {
        setLoading(false)
      }
    },
    [action],
  )
  return [run, { isLoading }]
}
