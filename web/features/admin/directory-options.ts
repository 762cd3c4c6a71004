/// The directory's filters and orders, each as list-users (better-auth's admin route) takes it:
/// one filter (`filterField`/`filterValue`/`filterOperator`) and one sort (`sortBy`/`sortDirection`).

export type UserFilter = 'all' | 'banned' | 'unverified' | 'admin'
export type UserSort = 'newest' | 'oldest' | 'seen' | 'name' | 'email' | 'role'

export const FILTERS: readonly { value: UserFilter; label: string }[] = [
  { value: 'all', label: 'Everyone' },
  { value: 'banned', label: 'Banned' },
  { value: 'unverified', label: 'Email not verified' },
  { value: 'admin', label: 'Admins' },
]

export const SORTS: readonly { value: UserSort; label: string }[] = [
  { value: 'newest', label: 'Newest first' },
  { value: 'oldest', label: 'Oldest first' },
  { value: 'seen', label: 'Recently seen first' },
  { value: 'name', label: 'Name, A to Z' },
  { value: 'email', label: 'Email, A to Z' },
  { value: 'role', label: 'Role, A to Z' },
]

const FILTER_PARAMS: Record<UserFilter, Record<string, string>> = {
  all: {},
  banned: { filterField: 'banned', filterValue: 'true', filterOperator: 'eq' },
  unverified: { filterField: 'emailVerified', filterValue: 'false', filterOperator: 'eq' },
  // A role list such as "user,admin" holds admin too.
  admin: { filterField: 'role', filterValue: 'admin', filterOperator: 'contains' },
}

const SORT_PARAMS: Record<UserSort, { sortBy: string; sortDirection: 'asc' | 'desc' }> = {
  newest: { sortBy: 'createdAt', sortDirection: 'desc' },
  oldest: { sortBy: 'createdAt', sortDirection: 'asc' },
  name: { sortBy: 'name', sortDirection: 'asc' },
  // Those who never signed in come last (list-users.ts).
  seen: { sortBy: 'lastSeenAt', sortDirection: 'desc' },
  email: { sortBy: 'email', sortDirection: 'asc' },
  role: { sortBy: 'role', sortDirection: 'asc' },
}

export const directoryParams = (filter: UserFilter, sort: UserSort) => ({
  ...FILTER_PARAMS[filter],
  ...SORT_PARAMS[sort],
})

/** What the list says about a person at a glance, most pressing first. */
export const statusesOf = (user: { role: string; banned: boolean; emailVerified: boolean }) => [
  ...(user.banned ? [{ label: 'Banned', tone: 'warning' as const }] : []),
  ...(user.emailVerified ? [] : [{ label: 'Unverified', tone: 'info' as const }]),
  ...(user.role.split(',').includes('admin') ? [{ label: 'Admin', tone: 'info' as const }] : []),
]
