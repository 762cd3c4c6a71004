import { api } from '../../app/api.js'

/** An API key as the server lists it: never the key itself, only its first characters. */
export type ApiKey = {
  id: string
  name: string | null
  start: string | null
  /** Tessera's: the key's last four characters; null for keys made before they were kept. */
  lastFour?: string | null
  prefix: string | null
  enabled: boolean
  createdAt: string
  expiresAt: string | null
  lastRequest: string | null
  requestCount: number
  remaining: number | null
  rateLimitEnabled: boolean
  rateLimitMax: number | null
  rateLimitTimeWindow: number | null
}

/** Whose keys: the signed-in person's (no organizationId), or an organization's. */
export type KeyOwner = { organizationId?: string }

export type CreateApiKey = KeyOwner & { name?: string; expiresIn?: number; prefix?: string }

export const apiKeysApi = api.injectEndpoints({
  endpoints: (build) => ({
    listApiKeys: build.query<{ apiKeys: ApiKey[]; total: number }, KeyOwner | undefined>({
      query: (owner) => ({
        url: '/api-key/list',
        params: {
          sortBy: 'createdAt',
          sortDirection: 'desc',
          ...(owner?.organizationId ? { organizationId: owner.organizationId } : {}),
        },
      }),
    }),
    createApiKey: build.mutation<ApiKey & { key: string }, CreateApiKey>({
      query: (body) => ({ url: '/api-key/create', method: 'POST', body }),
    }),
    updateApiKey: build.mutation<ApiKey, { keyId: string; enabled: boolean }>({
      query: (body) => ({ url: '/api-key/update', method: 'POST', body }),
    }),
    deleteApiKey: build.mutation<{ success: boolean }, { keyId: string }>({
      query: (body) => ({ url: '/api-key/delete', method: 'POST', body }),
    }),
  }),
})

export const {
  useListApiKeysQuery,
  useCreateApiKeyMutation,
  useUpdateApiKeyMutation,
  useDeleteApiKeyMutation,
} = apiKeysApi
