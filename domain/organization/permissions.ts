/// Organization permissions as data: a role is a set of statements (resource → actions), and one
/// function answers whether a member's role string grants what is asked. Built-in roles follow the
/// spec (owner: all; admin: all but deleting the organization; member: nothing but reading roles);
/// an organization's custom roles (dynamic access control) are passed in beside them.
///
/// The organization's API keys (`apiKey`) follow better-auth 1.7.5's api-key plugin: the creator
/// role (owner by default) manages them whatever its statements say (`allowCreatorAllPermissions`),
/// the built-in admin and member roles hold none of them, and a custom role may grant any.

/** resource → actions, e.g. `{ member: ['update'], invitation: ['cancel'] }`. */
export type Statements = Readonly<Record<string, readonly string[]>>

/** Every resource and action a role may hold. */
export const RESOURCES: Statements = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'read', 'update', 'delete'],
  apiKey: ['create', 'read', 'update', 'delete'],
  // Tessera's own: an organization's webhook endpoints (owners and admins hold it).
  webhook: ['create', 'update', 'delete'],
  // Tessera's own: an organization's OAuth clients (the plugin's `clientPrivileges` actions).
  oauthClient: ['create', 'read', 'update', 'delete', 'rotate'],
}

// better-auth's built-in roles hold no `apiKey` statement; the creator role is let in below.
const { apiKey: _heldByCreatorRoleOnly, ...OWNER } = RESOURCES

export const BUILT_IN_ROLES: Readonly<Record<string, Statements>> = {
  owner: OWNER,
  admin: { ...OWNER, organization: ['update'] },
  member: { ac: ['read'] },
}

export type ApiKeyAction = 'create' | 'read' | 'update' | 'delete'

/** Whether a member may `action` the organization's API keys (see the top of this file). */
export const mayManageApiKeys = (
  role: string,
  action: ApiKeyAction,
  creatorRole: string,
  customRoles: Readonly<Record<string, Statements>> = {},
): boolean => rolesOf(role).includes(creatorRole) || hasPermission(role, { apiKey: [action] }, customRoles)

export const isBuiltInRole = (role: string): boolean => Object.hasOwn(BUILT_IN_ROLES, role)

/** The roles a role string names: 'admin, member' → ['admin', 'member']; blanks dropped. */
export const rolesOf = (role: string): string[] =>
  role
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0)

/**
 * Whether `role` (one or several comma-separated roles) grants every action in `requested`. Several
 * roles grant the union of their statements. Asking for nothing is denied: a check that names no
 * permission is a mistake, not a pass. `customRoles` add to (or extend) the built-in roles.
 */
export const hasPermission = (
  role: string,
  requested: Statements | null | undefined,
  customRoles: Readonly<Record<string, Statements>> = {},
): boolean => {
  const asked = Object.entries(requested ?? {})
  if (asked.length === 0) return false
  const granted = new Map<string, Set<string>>()
  for (const name of rolesOf(role)) {
    for (const statements of [BUILT_IN_ROLES[name], customRoles[name]]) {
      for (const [resource, actions] of Object.entries(statements ?? {})) {
        const set = granted.get(resource) ?? new Set<string>()
        for (const action of actions) set.add(action)
        granted.set(resource, set)
      }
    }
  }
  return asked.every(
    ([resource, actions]) =>
      actions.length > 0 && actions.every((action) => granted.get(resource)?.has(action)),
  )
}

/** Resources named in `statements` that no role can hold (custom roles may only use these). */
export const unknownResources = (statements: Statements): string[] =>
  Object.keys(statements).filter((resource) => !Object.hasOwn(RESOURCES, resource))
