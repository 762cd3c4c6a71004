import { api } from '../../app/api.js'

/**
 * Where the server sends the browser after a mailed link worked (it adds `error=` when it did
 * not). The last segment tells that redirect apart from someone opening /email-verified by hand,
 * which must not claim that anything was verified. A path, not a query: it survives every way
 * a link is encoded and decoded on its way through mail.
 */
export const VERIFIED_CALLBACK = '/email-verified/link'

export const verificationApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendVerificationEmail: build.mutation<{ status: boolean }, { email: string }>({
      query: ({ email }) => ({
        url: '/send-verification-email',
        method: 'POST',
        body: { email, callbackURL: VERIFIED_CALLBACK },
      }),
    }),
  }),
})

export const { useSendVerificationEmailMutation } = verificationApi
