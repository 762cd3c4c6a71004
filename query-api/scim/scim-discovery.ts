/// SCIM discovery (RFC 7644 §4): what this service provider supports, the User schema and resource
/// type. Answered without a token, as the plugin's are, so an IdP's administrator can point a
/// client at Tessera before any credential exists.

import { SCIM_GROUP_SCHEMA } from '../../http/scim/scim-group-presenter.js'
import { SCIM_LIST_RESPONSE_SCHEMA, SCIM_USER_SCHEMA } from '../../http/scim/scim-presenter.js'

const attribute = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
})

export const userSchema = (location: string) => ({
  id: SCIM_USER_SCHEMA,
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
  name: 'User',
  description: 'User Account',
  attributes: [
    attribute('userName', { required: true, uniqueness: 'server' }),
    attribute('externalId', { caseExact: true }),
    attribute('name', {
      type: 'complex',
      subAttributes: [attribute('formatted'), attribute('givenName'), attribute('familyName')],
    }),
    attribute('displayName'),
    attribute('emails', {
      type: 'complex',
      multiValued: true,
      subAttributes: [attribute('value'), attribute('type'), attribute('primary', { type: 'boolean' })],
    }),
    attribute('active', { type: 'boolean' }),
  ],
  meta: { resourceType: 'Schema', location },
})

export const userResourceType = (location: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
  id: 'User',
  name: 'User',
  endpoint: '/Users',
  description: 'User Account',
  schema: SCIM_USER_SCHEMA,
  meta: { resourceType: 'ResourceType', location },
})

export const groupSchema = (location: string) => ({
  id: SCIM_GROUP_SCHEMA,
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
  name: 'Group',
  description: 'Group',
  attributes: [
    attribute('displayName', { required: true, uniqueness: 'server' }),
    attribute('externalId', { caseExact: true }),
    attribute('members', {
      type: 'complex',
      multiValued: true,
      subAttributes: [
        attribute('value', { mutability: 'immutable' }),
        attribute('$ref', { type: 'reference', referenceTypes: ['User'], mutability: 'immutable' }),
        attribute('display', { mutability: 'readOnly' }),
        attribute('type', { canonicalValues: ['User'], mutability: 'immutable' }),
      ],
    }),
  ],
  meta: { resourceType: 'Schema', location },
})

export const groupResourceType = (location: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
  id: 'Group',
  name: 'Group',
  endpoint: '/Groups',
  description: 'Group',
  schema: SCIM_GROUP_SCHEMA,
  meta: { resourceType: 'ResourceType', location },
})

export const serviceProviderConfig = (location: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: 100 },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      name: 'OAuth Bearer Token',
      description: 'Authentication using a bearer token in the Authorization header.',
      specUri: 'https://www.rfc-editor.org/info/rfc6750',
      type: 'oauthbearertoken',
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location },
})

export const listOf = (resources: readonly unknown[]) => ({
  schemas: [SCIM_LIST_RESPONSE_SCHEMA],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
})
