import type { OrganizationContext, Viewer } from './organization-context.js'
import { organizationsApi, type Team, type TeamMember } from './organizations.api.js'
import { type Action, can } from './roles.js'

/// Tessera's reads for the organization pages (query-api/organization/organization-viewer.routes.ts):
/// what the reader's role grants, as the server decides it, and teams with their members. With them
/// a page calls only what the reader may read, instead of learning it from a refusal.

export type { Viewer } from './organization-context.js'

export type TeamWithMembers = Team & { members: TeamMember[] }

/** What a page may need: the portal's actions, plus reading API keys and custom roles. */
export type Permission = Action | 'apiKey:read' | 'ac:read'

const viewerApi = organizationsApi.injectEndpoints({
  endpoints: (build) => ({
    getOrganizationViewer: build.query<Viewer, { organizationId: string }>({
      query: ({ organizationId }) => ({ url: '/organization/viewer', params: { organizationId } }),
      providesTags: (_result, _error, { organizationId }) => [
        { type: 'Organization', id: organizationId },
        'Roles',
      ],
    }),
    getTeamRoster: build.query<TeamWithMembers[], { organizationId: string }>({
      query: ({ organizationId }) => ({ url: '/organization/team-roster', params: { organizationId } }),
      providesTags: (_result, _error, { organizationId }) => [
        { type: 'Organization', id: organizationId },
        'Teams',
      ],
    }),
  }),
})

export const { useGetOrganizationViewerQuery, useGetTeamRosterQuery } = viewerApi

/**
 * Whether the reader may do `permission` here: the server's answer when it gave one, else the
 * portal's mirror of the built-in roles (API keys and custom roles then stay hidden).
 */
export const may = (context: Pick<OrganizationContext, 'viewer' | 'me'>, permission: Permission): boolean => {
  const [resource = '', action = ''] = permission.split(':')
  if (context.viewer) return context.viewer.permissions[resource]?.includes(action) ?? false
  if (permission === 'apiKey:read' || permission === 'ac:read') return false
  return can(context.me?.role, permission)
}
