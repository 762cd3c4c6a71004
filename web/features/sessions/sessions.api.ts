import { api } from '../../app/api.js'
import type { Session } from '../session/session.api.js'

export const sessionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listSessions: build.query<Session[], void>({
      query: () => '/list-sessions',
      providesTags: ['Sessions'],
    }),
    revokeSession: build.mutation<{ status: boolean }, { token: string }>({
      query: (body) => ({ url: '/revoke-session', method: 'POST', body }),
      invalidatesTags: ['Sessions', 'Activity'],
    }),
    revokeOtherSessions: build.mutation<{ status: boolean }, void>({
      query: () => ({ url: '/revoke-other-sessions', method: 'POST', body: {} }),
      invalidatesTags: ['Sessions', 'Activity'],
    }),
  }),
})

export const { useListSessionsQuery, useRevokeSessionMutation, useRevokeOtherSessionsMutation } = sessionsApi
