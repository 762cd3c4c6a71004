/// The console's requests for OAuth clients, on better-auth's oauth-provider routes. Their refusals
/// are OAuth's `{error, error_description}`, whose description names the problem (an invalid redirect
/// URI, a scope): it is shown as the server worded it, since it concerns what the operator typed.

export type OAuthClient = {
  client_id: string
  client_secret?: string
  client_name?: string
  redirect_uris: string[]
  token_endpoint_auth_method: string
  grant_types: string[]
  public: boolean
  skip_consent?: boolean
  client_id_issued_at?: number
}

export type ClientFields = { client_name: string; redirect_uris: string[]; skip_consent: boolean }

export class ClientRefusal extends Error {}

const call = async <T>(path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`/api/auth${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    credentials: 'include',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  const text = await response.text()
  const data: unknown = text ? JSON.parse(text) : null
  if (response.ok) return data as T
  const said = data as { error_description?: string; message?: string } | null
  throw new ClientRefusal(
    said?.error_description || said?.message || `The server refused (${response.status}).`,
  )
}

/** Whose clients: every one (operators, in the console), or one organization's (`reference_id`). */
export type ClientScope = { organizationId: string | null }

export const listClients = ({ organizationId }: ClientScope) =>
  call<OAuthClient[]>(
    organizationId === null
      ? '/oauth2/get-clients'
      : `/oauth2/get-clients?reference_id=${encodeURIComponent(organizationId)}`,
  )

export const createClient = (
  fields: ClientFields & { confidential: boolean },
  { organizationId }: ClientScope,
) => {
  const common = {
    client_name: fields.client_name,
    redirect_uris: fields.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: fields.confidential ? 'client_secret_basic' : 'none',
  }
  // An organization's clients are registered as its own and never skip consent (only operators may).
  return organizationId === null
    ? call<OAuthClient>('/admin/oauth2/create-client', { ...common, skip_consent: fields.skip_consent })
    : call<OAuthClient>('/oauth2/create-client', { ...common, reference_id: organizationId })
}

export const updateClient = (clientId: string, fields: Partial<ClientFields>) =>
  call<OAuthClient>('/oauth2/update-client', { client_id: clientId, update: fields })

export const rotateSecret = (clientId: string) =>
  call<OAuthClient>('/oauth2/client/rotate-secret', { client_id: clientId })

export const deleteClient = (clientId: string) => call<null>('/oauth2/delete-client', { client_id: clientId })

/** One redirect URI a line, blank lines ignored. */
export const urisOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
