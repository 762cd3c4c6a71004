import { api } from '../../app/api.js'

/**
 * What this Tessera is configured to do, where it changes what the portal must say
 * (GET /portal-config). Until the server answers it, every field is unknown and the portal words
 * things so they are true either way.
 */
export type PortalConfig = {
  emailVerification: { sendOnSignUp: boolean; required: boolean }
  deleteUser: { enabled: boolean; immediate: boolean }
  changeEmail: { enabled: boolean }
  sso: { domainVerificationPrefix: string }
  oauthProvider: { enabled: boolean }
}

export const configApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPortalConfig: build.query<PortalConfig, void>({
      query: () => '/portal-config',
      // It changes only with a restart of the server.
      keepUnusedDataFor: 3600,
    }),
  }),
})

/** The configuration, or undefined while loading or when the server does not offer it. */
export const usePortalConfig = (): PortalConfig | undefined => configApi.useGetPortalConfigQuery().data
