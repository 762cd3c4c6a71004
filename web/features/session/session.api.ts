import { api } from '../../app/api.js'

export type User = {
  id: string
  email: string
  name: string
  image: string | null
  emailVerified: boolean
  /** The username, lowercased; null (or absent on older servers) when none is set. */
  username?: string | null
  /** The username as its owner typed it ("Ada_L"); what the portal shows. */
  displayUsername?: string | null
  createdAt: string
  updatedAt: string
}

export type Session = {
  id: string
  userId: string
  expiresAt: string
  createdAt: string
  updatedAt: string
  ipAddress: string | null
  userAgent: string | null
  /** An opaque handle for revoke-session, not a credential the portal keeps. */
  token: string
  /** Where the IP address is, when the server knows ("Berlin, Germany"); see SERVER-NEEDS.md. */
  location?: string | null
}

export type SignedIn = { session: Session; user: User }

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSession: build.query<SignedIn | null, void>({
      query: () => '/get-session',
      providesTags: ['Session', 'User'],
    }),
    signOut: build.mutation<{ success: boolean }, void>({
      query: () => ({ url: '/sign-out', method: 'POST', body: {} }),
    }),
  }),
})

export const { useGetSessionQuery, useSignOutMutation } = sessionApi
