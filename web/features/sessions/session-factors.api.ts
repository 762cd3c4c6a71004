import { api } from '../../app/api.js'

/// How each session was signed in (Tessera's GET /session-factors and /admin/session-factors).

export type SessionFactors = { id: string; amr: string[] | null }[]

export const sessionFactorsApi = api.injectEndpoints({
  endpoints: (build) => ({
    sessionFactors: build.query<SessionFactors, void>({
      query: () => '/session-factors',
      providesTags: ['Sessions'],
    }),
    userSessionFactors: build.query<SessionFactors, string>({
      query: (userId) => `/admin/session-factors?userId=${encodeURIComponent(userId)}`,
      providesTags: ['Sessions'],
    }),
  }),
})

export const { useSessionFactorsQuery, useUserSessionFactorsQuery } = sessionFactorsApi
