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
  /** Roles, comma-separated (admin plugin). Who sees the operator console, the server says (admin.api). */
  role?: string
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
  /**
   * Where the device was when it signed in, as the operator's proxy or CDN placed its address
   * (Tessera's PLACE_COUNTRY_HEADER): an ISO 3166-1 country code; null (or absent on older
   * servers) when unknown.
   */
  country?: string | null
  /** The city, as that proxy named it; null or absent when unknown. */
  city?: string | null
  /** The operator acting as this person (admin impersonation); null or absent otherwise. */
  impersonatedBy?: string | null
}

/** The current session as the portal keeps it: without its token (see `getSession`). */
export type CurrentSession = Omit<Session, 'token'>

export type SignedIn = { session: CurrentSession; user: User }

/** What get-session (and list-device-sessions, per account) answers: the session with its token. */
export type SessionAnswer = { session: Session; user: User }

/**
 * get-session answers with the raw session token, as better-auth does. The cookie is the
 * credential; a copy of it in the Redux cache (readable by any script on the page, and by the
 * developer tools' store inspector) would only be one more place to steal it from.
 */
const withoutToken = (answer: SessionAnswer | null): SignedIn | null => {
  if (!answer) return null
  const { token: _token, ...session } = answer.session
  return { ...answer, session }
}

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSession: build.query<SignedIn | null, void>({
      query: () => '/get-session',
      transformResponse: withoutToken,
      providesTags: ['Session', 'User'],
    }),
    signOut: build.mutation<{ success: boolean }, void>({
      query: () => ({ url: '/sign-out', method: 'POST', body: {} }),
    }),
  }),
})

export const { useGetSessionQuery, useSignOutMutation } = sessionApi
