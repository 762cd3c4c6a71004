/// The SCIM Group resource Tessera answers (RFC 7643 core Group, on the plugin's wire): id (also
/// the organization team's id), externalId, displayName, members (`value`, `$ref`, `display`,
/// `type: "User"`), meta.

import { Type } from 'typebox'
import type { ScimGroupMemberView, ScimGroupView } from '../../projections/scim/scim-groups.repository.js'
import { resourceUrl } from './scim-presenter.js'

export const SCIM_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group'

export const ScimGroupSchema = Type.Object({
  schemas: Type.Array(Type.String()),
  id: Type.String(),
  externalId: Type.Optional(Type.String()),
  displayName: Type.String(),
  members: Type.Array(
    // `$ref` (the member's User URL) is sent as an additional property: a property of that name in
    // the schema reads as a JSON reference to the OpenAPI generator, which then fails.
    Type.Object(
      { value: Type.String(), display: Type.String(), type: Type.String() },
      { additionalProperties: true, description: 'Also `$ref`: the URL of the member’s User resource.' },
    ),
  ),
  meta: Type.Object({
    resourceType: Type.String(),
    created: Type.String(),
    lastModified: Type.String(),
    location: Type.String(),
  }),
})

export const ScimGroupListSchema = Type.Object({
  schemas: Type.Array(Type.String()),
  totalResults: Type.Integer(),
  startIndex: Type.Integer(),
  itemsPerPage: Type.Integer(),
  Resources: Type.Array(ScimGroupSchema),
})

export const scimGroupJson = (
  row: ScimGroupView,
  members: readonly ScimGroupMemberView[],
  baseUrl: string,
  basePath: string,
) => ({
  schemas: [SCIM_GROUP_SCHEMA],
  id: row.group_id,
  ...(row.external_id ? { externalId: row.external_id } : {}),
  displayName: row.display_name,
  members: members
    .filter((member) => member.group_id === row.group_id)
    .map((member) => ({
      value: member.user_id,
      $ref: resourceUrl(baseUrl, basePath, `/Users/${encodeURIComponent(member.user_id)}`),
      display: member.name,
      type: 'User',
    })),
  meta: {
    resourceType: 'Group',
    created: row.created_at.toISOString(),
    lastModified: row.updated_at.toISOString(),
    location: resourceUrl(baseUrl, basePath, `/Groups/${encodeURIComponent(row.group_id)}`),
  },
})
