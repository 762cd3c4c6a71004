/// What the SCIM int tests share: the schema URNs, a test bearer token, and a client that calls
/// `/api/auth/scim/v2` in-process with a connection's token (as an identity provider would).

import type { TestTessera } from './tessera.js'

export const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const SCIM_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group'
export const SCIM_PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

/** A connection token of the length the config asks for. */
export const OKTA_TOKEN = 'okta-token-0123456789abcdef0123456789'

/** The features of one SCIM connection `okta` provisioning the organization `acme`. */
export const oktaConnection = {
  connections: [
    { id: 'okta', provisioningDomainId: 'acme', credentials: [{ id: 'primary', token: OKTA_TOKEN }] },
  ],
}

/** Calls SCIM with `token` (Okta's by default); a body goes as application/scim+json. */
export const scimClient =
  (tessera: () => TestTessera, token = OKTA_TOKEN) =>
  async (method: string, path: string, body?: unknown) => {
    const response = await tessera().app?.inject({
      method: method as 'GET',
      url: `/api/auth/scim/v2${path}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    })
    if (!response) throw new Error('no app')
    // The answer's JSON left untyped: each test reads the fields its call returns.
    return { status: response.statusCode, json: response.body ? JSON.parse(response.body) : null }
  }
