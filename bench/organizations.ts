/// The organization scenarios (issue 11) and their setup over the HTTP API: a few users who are
/// each in 10 organizations (organization/list), and one organization with 100 members
/// (get-full-organization, has-permission), every tenth member an admin. Members are added through
/// the server API's `POST /organization/add-member` when the server has it, else by invitations
/// that the seeded users accept.

import { BENCH_SERVER_KEY, SERVER_KEY_HEADER } from './api-keys.js'
import type { ScenarioSpec, Shot, Timing } from './load.js'
import { type BenchUser, seedUsers } from './seed.js'
import { isRecord, JSON_HEADERS, parse, rotate } from './shots.js'

const ORGANIZATIONS_PER_USER = 10
/** Users who each create 10 organizations; organization/list rotates over them. */
const LISTING_USERS = 8
const FULL_ORGANIZATION_MEMBERS = 100
const ADMIN_EVERY = 10
const SEED_CONCURRENCY = 8

type Role = 'owner' | 'admin' | 'member'

export type BenchOrganizations = {
  /** Each user with the ids of the organizations they are in. */
  listing: { user: BenchUser; organizationIds: string[] }[]
  /** The organization with 100 members, and its members with their roles. */
  full: { id: string; members: { user: BenchUser; role: Role }[] }
  /** How the members were added: `add-member` (server API) or `invitations`. */
  membersAddedBy: 'add-member' | 'invitations'
}

export const NO_ORGANIZATIONS: BenchOrganizations = {
  listing: [],
  full: { id: '', members: [] },
  membersAddedBy: 'add-member',
}

type Answer = { status: number; body: unknown }

const send = async (
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Answer> => {
  const response = await fetch(`${baseUrl}/api/auth${path}`, {
    method: 'POST',
    // With a cookie, as from the portal's page: such a POST without an Origin is refused (CSRF),
    // while the server key is refused with one (it is no browser's).
    headers: { ...JSON_HEADERS, ...(headers.cookie ? { origin: new URL(baseUrl).origin } : {}), ...headers },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, body: parse(text) ?? text }
}

const idOf = (answer: Answer, what: string): string => {
  if (answer.status === 200 && isRecord(answer.body) && typeof answer.body.id === 'string')
    return answer.body.id
  throw new Error(`${what} failed: ${answer.status} ${JSON.stringify(answer.body)}`)
}

const createOrganization = async (baseUrl: string, owner: BenchUser, slug: string): Promise<string> =>
  idOf(
    await send(baseUrl, '/organization/create', { name: `Bench ${slug}`, slug }, { cookie: owner.cookie }),
    `organization/create ${slug}`,
  )

const inParallel = async <T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>) => {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/** True when the server has no such route (Tessera's own 404 for unknown paths). */
const isUnknownRoute = (answer: Answer) =>
  answer.status === 404 && isRecord(answer.body) && answer.body.code === 'NOT_FOUND'

const addMember = (baseUrl: string, organizationId: string, user: BenchUser, role: Role) =>
  send(
    baseUrl,
    '/organization/add-member',
    { userId: user.id, role, organizationId },
    { [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
  )

const inviteAndAccept = async (
  baseUrl: string,
  organizationId: string,
  owner: BenchUser,
  user: BenchUser,
  role: Role,
) => {
  const invitationId = idOf(
    await send(
      baseUrl,
      '/organization/invite-member',
      { email: user.email, role, organizationId },
      { cookie: owner.cookie },
    ),
    `organization/invite-member ${user.email}`,
  )
  const accepted = await send(
    baseUrl,
    '/organization/accept-invitation',
    { invitationId },
    { cookie: user.cookie },
  )
  if (accepted.status !== 200)
    throw new Error(
      `organization/accept-invitation failed: ${accepted.status} ${JSON.stringify(accepted.body)}`,
    )
}

/**
 * Adds the members one after another (they all change one organization), through add-member when
 * the server offers it, else by invitation.
 */
const addMembers = async (
  baseUrl: string,
  organizationId: string,
  owner: BenchUser,
  members: readonly { user: BenchUser; role: Role }[],
): Promise<BenchOrganizations['membersAddedBy']> => {
  const [first, ...rest] = members
  if (!first) return 'add-member'
  const probe = await addMember(baseUrl, organizationId, first.user, first.role)
  if (isUnknownRoute(probe)) {
    for (const { user, role } of members) await inviteAndAccept(baseUrl, organizationId, owner, user, role)
    return 'invitations'
  }
  idOf(probe, 'organization/add-member')
  for (const { user, role } of rest)
    idOf(await addMember(baseUrl, organizationId, user, role), 'organization/add-member')
  return 'add-member'
}

export const seedOrganizations = async (
  baseUrl: string,
  users: readonly BenchUser[],
  email: (label: string, n: number) => string,
): Promise<BenchOrganizations> => {
  const started = Date.now()
  const listingUsers = users.slice(0, LISTING_USERS)
  const [owner, ...others] = users.slice(listingUsers.length)
  // Fewer seeded users than members: sign up the rest (scrypt-bound, about 20/s on 2 cores).
  const missing = Math.max(0, FULL_ORGANIZATION_MEMBERS - 1 - others.length) + (owner ? 0 : 1)
  const extra =
    missing > 0
      ? await seedUsers(baseUrl, { count: missing, concurrency: 16, email: (n) => email('member', n) })
      : []
  const [fullOwner, ...candidates] = owner ? [owner, ...others, ...extra] : extra
  if (!fullOwner) throw new Error('no user to own the organization')

  const listing = await inParallel(listingUsers, SEED_CONCURRENCY, async (user) => {
    const organizationIds: string[] = []
    for (let n = 0; n < ORGANIZATIONS_PER_USER; n++)
      organizationIds.push(await createOrganization(baseUrl, user, `${slugOf(user)}-${n}`))
    return { user, organizationIds }
  })

  const fullId = await createOrganization(baseUrl, fullOwner, `${slugOf(fullOwner)}-full`)
  const added = candidates.slice(0, FULL_ORGANIZATION_MEMBERS - 1).map((user, n) => ({
    user,
    role: ((n + 1) % ADMIN_EVERY === 0 ? 'admin' : 'member') as Role,
  }))
  const membersAddedBy = await addMembers(baseUrl, fullId, fullOwner, added)
  console.log(
    `  seeded ${listing.length} users in ${ORGANIZATIONS_PER_USER} organizations each and one organization ` +
      `with ${added.length + 1} members (by ${membersAddedBy}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  )
  return {
    listing,
    full: { id: fullId, members: [{ user: fullOwner, role: 'owner' }, ...added] },
    membersAddedBy,
  }
}

/** A slug from the run-unique local part of the user's address. */
const slugOf = (user: BenchUser) =>
  user.email
    .slice(0, user.email.indexOf('@'))
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')

const sameIds = (listed: unknown, expected: readonly string[]) =>
  Array.isArray(listed) &&
  listed.length === expected.length &&
  listed.every((organization) => isRecord(organization) && expected.includes(String(organization.id)))

/** The caller's organizations, exactly the 10 they are in. */
const listShots = (listing: BenchOrganizations['listing']) => {
  const next = rotate(listing)
  return (): Shot => {
    const { user, organizationIds } = next()
    return {
      kind: 'organization/list',
      method: 'GET',
      path: '/api/auth/organization/list',
      headers: { cookie: user.cookie },
      isCorrect: (body) => sameIds(parse(body), organizationIds),
    }
  }
}

/** The organization with all its members, asked for by each member in turn. */
const fullOrganizationShots = ({ id, members }: BenchOrganizations['full']) => {
  const next = rotate(members)
  return (): Shot => {
    const { user } = next()
    return {
      kind: 'get-full-organization',
      method: 'GET',
      path: `/api/auth/organization/get-full-organization?organizationId=${encodeURIComponent(id)}`,
      headers: { cookie: user.cookie },
      isCorrect: (body) => {
        const value = parse(body)
        return (
          isRecord(value) &&
          value.id === id &&
          Array.isArray(value.members) &&
          value.members.length === members.length &&
          value.members.some((member) => isRecord(member) && member.userId === user.id)
        )
      },
    }
  }
}

/** May the caller add members? Owners and admins may, members may not: each answer is checked. */
const hasPermissionShots = ({ id, members }: BenchOrganizations['full']) => {
  const next = rotate(members)
  return (): Shot => {
    const { user, role } = next()
    const expected = role !== 'member'
    return {
      kind: 'organization/has-permission',
      method: 'POST',
      path: '/api/auth/organization/has-permission',
      headers: { ...JSON_HEADERS, cookie: user.cookie },
      body: JSON.stringify({ organizationId: id, permissions: { member: ['create'] } }),
      isCorrect: (body) => {
        const value = parse(body)
        return isRecord(value) && value.error === null && value.success === expected
      },
    }
  }
}

export const organizationScenarios = (organizations: BenchOrganizations, timing: Timing): ScenarioSpec[] => [
  { name: 'organization/list c16', connections: 16, ...timing, next: listShots(organizations.listing) },
  {
    name: 'get-full-organization c16',
    connections: 16,
    ...timing,
    next: fullOrganizationShots(organizations.full),
  },
  {
    name: 'organization/has-permission c16',
    connections: 16,
    ...timing,
    next: hasPermissionShots(organizations.full),
  },
]
