/// What the portal offers a member to do in an organization, from their role. The server decides;
/// this only keeps buttons away from people who would be refused (their refusals still show).
/// Mirrors the built-in roles of the spec: owner all, admin all but deleting the organization,
/// member nothing. Several roles in one string ("admin,member") grant the union.

export const ROLES = ['member', 'admin', 'owner'] as const
export type BuiltInRole = (typeof ROLES)[number]

export const ROLE_LABELS: Readonly<Record<BuiltInRole, string>> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
}

export const ROLE_HINTS: Readonly<Record<BuiltInRole, string>> = {
  owner: 'Everything, including deleting the organization.',
  admin: 'Manage members, invitations, teams and settings.',
  member: 'Belongs to the organization, manages nothing.',
}

export type Action =
  | 'organization:update'
  | 'organization:delete'
  | 'member:update'
  | 'member:delete'
  | 'invitation:create'
  | 'invitation:cancel'
  | 'team:create'
  | 'team:update'
  | 'team:delete'
  | 'activity:read'

const GRANTS: Readonly<Record<BuiltInRole, readonly Action[]>> = {
  owner: [
    'organization:update',
    'organization:delete',
    'member:update',
    'member:delete',
    'invitation:create',
    'invitation:cancel',
    'team:create',
    'team:update',
    'team:delete',
    'activity:read',
  ],
  admin: [
    'organization:update',
    'member:update',
    'member:delete',
    'invitation:create',
    'invitation:cancel',
    'team:create',
    'team:update',
    'team:delete',
    'activity:read',
  ],
  member: [],
}

export const rolesIn = (role: string): string[] =>
  role
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)

const isBuiltIn = (role: string): role is BuiltInRole => (ROLES as readonly string[]).includes(role)

export const can = (role: string | null | undefined, action: Action): boolean =>
  rolesIn(role ?? '').some((name) => isBuiltIn(name) && GRANTS[name].includes(action))

/** "Owner", "Admin and Member", or the custom role's own name. */
export const roleLabel = (role: string): string =>
  rolesIn(role)
    .map((name) => (isBuiltIn(name) ? ROLE_LABELS[name] : name))
    .join(' and ')

/** The roles a person may hand out: an admin cannot make owners (the server refuses it too). */
export const assignableRoles = (myRole: string): BuiltInRole[] =>
  rolesIn(myRole).includes('owner') ? [...ROLES] : ROLES.filter((role) => role !== 'owner')
