import { api } from '../../app/api.js'

/** One of the organization's SCIM tokens as the server lists it: never the token itself. */
export type DirectoryCredential = {
  credentialId: string
  status: 'active' | 'expired' | 'revoked'
  scopes: string[]
  expiresAt: string | null
  createdAt: string
  revokedAt: string | null
}

export type DirectoryConnection = { connectionId: string; provisioningDomainId: string; status: string }

/** What the connection provisioned (Tessera's addition to the plugin's list). */
export type DirectoryActivity = {
  lastSyncAt: string | null
  provisioned: { total: number; active: number }
  latestPeople: { userId: string; name: string; email: string; active: boolean; updatedAt: string }[]
}

export const directorySyncApi = api.injectEndpoints({
  endpoints: (build) => ({
    listDirectoryConnections: build.query<
      { connections: (DirectoryConnection & DirectoryActivity & { credentials: DirectoryCredential[] })[] },
      string
    >({
      query: (organizationId) => ({ url: '/scim/list-managed-connections', params: { organizationId } }),
    }),
    mintDirectoryToken: build.mutation<
      { connection: DirectoryConnection; credential: DirectoryCredential; token: string },
      { organizationId: string }
    >({
      query: (body) => ({ url: '/scim/rotate-managed-credential', method: 'POST', body }),
    }),
    revokeDirectoryToken: build.mutation<
      { credential: DirectoryCredential },
      { organizationId: string; credentialId: string }
    >({ query: (body) => ({ url: '/scim/revoke-managed-credential', method: 'POST', body }) }),
  }),
})

export const {
  useListDirectoryConnectionsQuery,
  useMintDirectoryTokenMutation,
  useRevokeDirectoryTokenMutation,
} = directorySyncApi
