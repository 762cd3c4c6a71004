import { api } from '../../app/api.js'
import type { SessionAnswer } from '../session/session.api.js'

/** One account signed in on this device (better-auth's multiSession plugin). */
export type DeviceSession = SessionAnswer

// Another account becomes the active one: everything cached was about the previous one.
const EVERYTHING = ['Session', 'User', 'Sessions', 'Activity', 'DeviceSessions'] as const

export const multiSessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    listDeviceSessions: build.query<DeviceSession[], void>({
      query: () => '/multi-session/list-device-sessions',
      providesTags: ['DeviceSessions'],
    }),
    setActiveSession: build.mutation<unknown, { sessionToken: string }>({
      query: (body) => ({ url: '/multi-session/set-active', method: 'POST', body }),
      invalidatesTags: [...EVERYTHING],
    }),
    revokeDeviceSession: build.mutation<{ status: boolean }, { sessionToken: string }>({
      query: (body) => ({ url: '/multi-session/revoke', method: 'POST', body }),
      invalidatesTags: [...EVERYTHING],
    }),
  }),
})

export const { useListDeviceSessionsQuery, useSetActiveSessionMutation, useRevokeDeviceSessionMutation } =
  multiSessionApi
