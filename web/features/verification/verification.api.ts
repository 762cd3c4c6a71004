import { api } from '../../app/api.js'

export const verificationApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendVerificationEmail: build.mutation<{ status: boolean }, { email: string }>({
      query: ({ email }) => ({
        url: '/send-verification-email',
        method: 'POST',
        body: { email, callbackURL: '/email-verified' },
      }),
    }),
  }),
})

export const { useSendVerificationEmailMutation } = verificationApi
