/// The admin permission set (better-auth's admin plugin): what an operator may do to users and
/// their sessions. Roles are data: a role maps each resource to the actions it allows, so a custom
/// role is one more entry, as in the organization feature. A user may hold several roles,
/// stored comma-separated ("admin,support"); a permission is granted when any one of them holds
/// every action asked for.

/** Every action there is, per resource. An action not listed here is never granted. */
export const ADMIN_STATEMENTS = {
  user: [
    'create',
    'list',
    'set-role',
    'ban',
    'impersonate',
    'impersonate-admins',
    'delete',
    'set-password',
    'set-email',
    'get',
    'update',
  ],
  session: ['list', 'revoke', 'delete'],
} as const

export type AdminResource = keyof typeof ADMIN_STATEMENTS
export type AdminAction<R extends AdminResource = AdminResource> = (typeof ADMIN_STATEMENTS)[R][number]

/** What is asked for: resource → actions, all of which must be allowed. */
export type PermissionRequest = Readonly<Record<string, readonly string[]>>

/** A role: resource → the actions it allows. */
export type RoleGrants = Readonly<Partial<Record<string, readonly string[]>>>
export type RoleDefinitions = Readonly<Record<string, RoleGrants>>

/** As better-auth: `admin` holds everything but impersonating other admins; `user` nothing. */
export const DEFAULT_ADMIN_ROLES: RoleDefinitions = {
  admin: {
    user: ADMIN_STATEMENTS.user.filter((action) => action !== 'impersonate-admins'),
    session: ADMIN_STATEMENTS.session,
  },
  user: { user: [], session: [] },
}

export const DEFAULT_ROLE = 'user'
/** Roles whose holders count as admins (impersonating them needs `impersonate-admins`). */
export const ADMIN_ROLE_NAMES: readonly string[] = ['admin']

/** The roles a stored value names: "admin, support" → ['admin', 'support']; none → the default. */
export const rolesOf = (role: string | null | undefined): string[] => {
  const roles = (role ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0)
  return roles.length > 0 ? roles : [DEFAULT_ROLE]
}

/** One or several roles as they are stored: comma-separated, trimmed, without repeats. */
export const joinRoles = (role: string | readonly string[]): string =>
  [...new Set((typeof role === 'string' ? [role] : role).flatMap((name) => rolesOf(name)))].join(',')

const roleAllows = (grants: RoleGrants | undefined, request: PermissionRequest): boolean => {
  if (!grants) return false
  const entries = Object.entries(request)
  if (entries.length === 0) return false
  // As better-auth's role().authorize: a resource asked with no action grants nothing.
  return entries.every(([resource, actions]) => {
    const allowed = grants[resource]
    return allowed !== undefined && actions.length > 0 && actions.every((action) => allowed.includes(action))
  })
}

/** Whether a user holding `role` may do everything `request` asks. Pure; roles are data. */
export const hasAdminPermission = (
  role: string | null | undefined,
  request: PermissionRequest,
  roles: RoleDefinitions = DEFAULT_ADMIN_ROLES,
): boolean => rolesOf(role).some((name) => roleAllows(roles[name], request))

/** Whether `role` names an admin role (its holder is protected from impersonation). */
export const holdsAdminRole = (
  role: string | null | undefined,
  adminRoles: readonly string[] = ADMIN_ROLE_NAMES,
): boolean => rolesOf(role).some((name) => adminRoles.includes(name))

/** Whether every role named exists; an unknown one may not be given to anybody. */
export const rolesExist = (role: string | readonly string[], roles: RoleDefinitions = DEFAULT_ADMIN_ROLES) =>
  rolesOf(joinRoles(role)).every((name) => Object.hasOwn(roles, name))

/** Impersonation: the default lifetime of the session an operator opens as someone (1 hour). */
export const IMPERSONATION_SECONDS = 3600

/** better-auth's admin options that widen or narrow who counts as an admin. */
export type AdminPolicy = {
  /** Roles whose holders count as admins (impersonating them needs `impersonate-admins`). */
  adminRoles?: readonly string[]
  /** Users who hold every admin permission whatever their role. */
  adminUserIds?: readonly string[]
  /** Lets anyone allowed to impersonate act as an admin too. */
  allowImpersonatingAdmins?: boolean
  roles?: RoleDefinitions
}

export type Person = { id: string; role: string | null }

/** Whether `user` may do everything `request` asks: a listed admin id may, else their roles decide. */
export const userMay = (user: Person, request: PermissionRequest, policy: AdminPolicy = {}): boolean =>
  (policy.adminUserIds?.includes(user.id) ?? false) || hasAdminPermission(user.role, request, policy.roles)

/** Whether `user` is an admin: by an admin role, or by being listed in `adminUserIds`. */
export const isAdmin = (user: Person, policy: AdminPolicy = {}): boolean =>
  (policy.adminUserIds?.includes(user.id) ?? false) || holdsAdminRole(user.role, policy.adminRoles)

/**
 * Whether `actor` may act as `target`: it needs `user: impersonate`, and for an admin target also
 * `impersonate-admins` (or `allowImpersonatingAdmins`).
 */
export const impersonationRefusal = (
  actor: Person,
  target: Person,
  policy: AdminPolicy = {},
): 'not-allowed' | 'target-is-admin' | null => {
  if (!userMay(actor, { user: ['impersonate'] }, policy)) return 'not-allowed'
  if (!isAdmin(target, policy)) return null
  if (policy.allowImpersonatingAdmins === true) return null
  return userMay(actor, { user: ['impersonate-admins'] }, policy) ? null : 'target-is-admin'
}
