/// The SCIM User resource Tessera answers (RFC 7643 core User): id (the Tessera user id),
/// externalId, userName, name, displayName, emails (the account's address, primary), active, meta.

import { Type } from 'typebox'
import type { ScimUserView } from '../../projections/scim/scim-users.repository.js'
import { SCIM_BASE } from './scim-http.js'

export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const SCIM_LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'

const Meta = Type.Object({
  resourceType: Type.String(),
  created: Type.Optional(Type.String()),
  lastModified: Type.Optional(Type.String()),
  location: Type.String(),
})

export const ScimUserSchema = Type.Object({
  schemas: Type.Array(Type.String()),
  id: Type.String(),
  externalId: Type.Optional(Type.String()),
  userName: Type.String(),
  name: Type.Object({ formatted: Type.String() }),
  displayName: Type.String(),
  emails: Type.Array(Type.Object({ value: Type.String(), primary: Type.Boolean() })),
  active: Type.Boolean(),
  meta: Meta,
})

export const ScimUserListSchema = Type.Object({
  schemas: Type.Array(Type.String()),
  totalResults: Type.Integer(),
  startIndex: Type.Integer(),
  itemsPerPage: Type.Integer(),
  Resources: Type.Array(ScimUserSchema),
})

/** Absolute resource URLs, from the configured base URL (never from request headers). */
export const resourceUrl = (baseUrl: string, basePath: string, path: string): string =>
  `${baseUrl}${basePath}${SCIM_BASE}${path}`

export const scimUserJson = (row: ScimUserView, baseUrl: string, basePath: string) => ({
  schemas: [SCIM_USER_SCHEMA],
  id: row.user_id,
  ...(row.external_id ? { externalId: row.external_id } : {}),
  userName: row.user_name,
  name: { formatted: row.name },
  displayName: row.name,
  emails: [{ value: row.email, primary: true }],
  active: row.active,
  meta: {
    resourceType: 'User',
    created: row.created_at.toISOString(),
    lastModified: row.updated_at.toISOString(),
    location: resourceUrl(baseUrl, basePath, `/Users/${encodeURIComponent(row.user_id)}`),
  },
})
