import type { BaseQueryFn, FetchArgs, FetchBaseQueryMeta } from '@reduxjs/toolkit/query'
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react'
import { type ApiError, toApiError } from '../features/errors/api-error.js'
import { noteSessionEnded } from '../features/session/session-ended.js'

// The session is an HttpOnly cookie: the browser sends it, the portal never sees or stores it.
const rawBaseQuery = fetchBaseQuery({ baseUrl: '/api/auth', credentials: 'include' })

// Endpoints whose 401 is an answer, not a sign that the session ended.
// A 401 from multi-session's routes is INVALID_SESSION_TOKEN: about the account picked, not this one.
// (Sign-in and sign-up do without the store: app/http.ts.)
const UNAUTHENTICATED_ENDPOINTS = new Set([
  'getSession',
  'getPortalConfig',
  'setActiveSession',
  'revokeDeviceSession',
])

const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError, object, FetchBaseQueryMeta> = async (
  args,
  baseApi,
  extraOptions,
) => {
  const result = await rawBaseQuery(args, baseApi, extraOptions)
  if (result.error === undefined)
    return result.meta ? { data: result.data, meta: result.meta } : { data: result.data }
  const error = toApiError(result.error, result.meta?.response)
  // A session revoked elsewhere shows up as a 401 on the next call: re-asking get-session lets the
  // protected pages notice and send the person to sign-in.
  if (error.status === 401 && !UNAUTHENTICATED_ENDPOINTS.has(baseApi.endpoint)) {
    noteSessionEnded()
    baseApi.dispatch(api.util.invalidateTags(['Session']))
  }
  return result.meta ? { error, meta: result.meta } : { error }
}

/** The one API slice; each feature injects its endpoints (`api.injectEndpoints`). */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Session', 'Sessions', 'Activity', 'User', 'DeviceSessions'],
  // Coming back to the tab re-checks the session, so a device signed out elsewhere notices.
  refetchOnFocus: true,
  refetchOnReconnect: true,
  endpoints: () => ({}),
})
