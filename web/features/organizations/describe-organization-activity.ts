import type { FullOrganization, OrganizationActivityItem } from './organizations.api.js'
import { roleLabel } from './roles.js'
import { upright } from './sentence.js'

/// One sentence per entry of the organization's audit feed: who did what to whom, in words
/// ("Ada Lovelace invited grace@example.com as Member"), never the log's event names. Names come
/// from the entry when the server gives them, else from the organization's current members.

const text = (item: OrganizationActivityItem, key: string): string | null => {
  const value = item.details?.[key]
  return typeof value === 'string' && value !== '' ? value : null
}

type People = {
  nameOf: (userId: string | null) => string | null
  teamName: (teamId: string | null) => string | null
}

export const peopleOf = (organization: FullOrganization): People => ({
  nameOf: (userId) => organization.members.find((member) => member.userId === userId)?.user.name ?? null,
  teamName: (teamId) => organization.teams?.find((team) => team.id === teamId)?.name ?? null,
})

const actorName = (item: OrganizationActivityItem, people: People): string =>
  text(item, 'actorName') ?? people.nameOf(item.actorUserId) ?? 'Someone'

/** Who the entry is about: a name from the entry, else from the members, else "a member". */
const subjectName = (item: OrganizationActivityItem, people: People): string =>
  text(item, 'userName') ??
  text(item, 'memberName') ??
  text(item, 'email') ??
  people.nameOf(text(item, 'userId')) ??
  'a member'

/** Someone acting on themselves ("Ada added Ada to the team" reads as joining it). */
const bySelf = (item: OrganizationActivityItem): boolean =>
  item.actorUserId !== null && item.actorUserId === text(item, 'userId')

const teamOf = (item: OrganizationActivityItem, people: People): string =>
  text(item, 'teamName') ?? text(item, 'name') ?? people.teamName(text(item, 'teamId')) ?? 'a team'

/** What a directory (SCIM) did to a person, by event type. */
const DIRECTORY_VERBS: Readonly<Record<string, string>> = {
  'scim.user-provisioned': 'added',
  'scim.user-updated': 'updated',
  'scim.user-deactivated': 'deactivated',
  'scim.user-reactivated': 'reactivated',
  'scim.user-deprovisioned': 'removed',
}

const count = (item: OrganizationActivityItem, key: string): number => {
  const value = item.details?.[key]
  return Array.isArray(value) ? value.length : 0
}

const people = (n: number) => (n === 1 ? '1 person' : `${n} people`)

/** What a directory did to a group (a team of the organization, with the group's id). */
const directoryGroupChange = (item: OrganizationActivityItem, known: People): string => {
  const group = text(item, 'displayName') ?? known.teamName(text(item, 'groupId')) ?? 'a group'
  if (item.type === 'scim.group-created') return `created the group ${group}`
  if (item.type === 'scim.group-deleted') return `removed the group ${group}`
  if (item.type === 'scim.group-updated') {
    const before = text(item, 'previousDisplayName')
    return before && before !== group
      ? `renamed the group ${before} to ${group}`
      : `updated the group ${group}`
  }
  const [added, removed] = [count(item, 'added'), count(item, 'removed')]
  if (added && removed) return `added ${people(added)} to the group ${group} and took ${people(removed)} out`
  if (added) return `added ${people(added)} to the group ${group}`
  if (removed) return `took ${people(removed)} out of the group ${group}`
  return `changed the members of the group ${group}`
}

/** The entry's sentence, upright even when it starts with an erased person's "a member". */
export const describeOrganizationActivity = (item: OrganizationActivityItem, people: People): string =>
  upright(sentenceOf(item, people))

const sentenceOf = (item: OrganizationActivityItem, people: People): string => {
  const who = actorName(item, people)
  const role = text(item, 'role')
  const as = role ? ` as ${roleLabel(role)}` : ''
  switch (item.type) {
    case 'organization.created':
      return `${who} created the organization`
    case 'organization.updated':
      return `${who} changed the organization’s details`
    case 'organization.member-added':
      return `${subjectName(item, people)} joined${as}`
    case 'organization.member-removed': {
      const reason = text(item, 'reason')
      if (reason === 'left') return `${subjectName(item, people)} left the organization`
      if (reason === 'account-deleted')
        return `${subjectName(item, people)} left when their account was deleted`
      return `${who} removed ${subjectName(item, people)}`
    }
    case 'organization.member-role-updated':
      return `${who} made ${subjectName(item, people)}${role ? ` ${roleLabel(role)}` : ' a new role'}`
    case 'organization.invitation-created':
      return `${who} invited ${text(item, 'email') ?? 'someone'}${as}`
    case 'organization.invitation-renewed':
      return `${who} sent an invitation again`
    case 'organization.invitation-accepted':
      return `${who} accepted an invitation`
    case 'organization.invitation-rejected':
      return `${who} declined an invitation`
    case 'organization.invitation-canceled':
      return `${who} cancelled an invitation${text(item, 'email') ? ` to ${text(item, 'email')}` : ''}`
    case 'organization.team-created':
      return `${who} created the ${item.details?.defaultTeam === true ? 'default ' : ''}team ${teamOf(item, people)}`
    case 'organization.team-updated':
      return `${who} renamed a team to ${teamOf(item, people)}`
    case 'organization.team-removed':
      return `${who} removed the team ${teamOf(item, people)}`
    case 'organization.team-member-added':
      return bySelf(item)
        ? `${who} joined the team ${teamOf(item, people)}`
        : `${who} added ${subjectName(item, people)} to the team ${teamOf(item, people)}`
    case 'organization.team-member-removed':
      return bySelf(item)
        ? `${who} left the team ${teamOf(item, people)}`
        : `${who} took ${subjectName(item, people)} out of the team ${teamOf(item, people)}`
    case 'organization.role-created':
    case 'organization.role-updated':
    case 'organization.role-deleted':
      return `${who} ${item.type.endsWith('created') ? 'created' : item.type.endsWith('updated') ? 'changed' : 'deleted'} the role ${role ?? ''}`.trim()
    case 'scim.user-provisioned':
    case 'scim.user-updated':
    case 'scim.user-deactivated':
    case 'scim.user-reactivated':
    case 'scim.user-deprovisioned':
      return `The directory ${DIRECTORY_VERBS[item.type]} ${subjectName(item, people)}`
    case 'scim.group-created':
    case 'scim.group-updated':
    case 'scim.group-members-changed':
    case 'scim.group-deleted':
      return `The directory ${directoryGroupChange(item, people)}`
    case 'scim.credential-issued':
      return `${who} created a directory sync token`
    case 'scim.credential-revoked':
      return `${who} revoked a directory sync token`
    case 'oauth-client.registered':
      return `${who} registered the application ${text(item, 'name') ?? text(item, 'clientId') ?? ''}`.trim()
    case 'oauth-client.updated':
    case 'oauth-client.secret-rotated':
    case 'oauth-client.deleted':
      return `${who} ${{ updated: 'changed', 'secret-rotated': 'replaced the secret of', deleted: 'deleted' }[item.type.slice(13)] ?? 'changed'} an application`
    default:
      return `${who}: ${item.type.replace(/^organization\./, '').replace(/-/g, ' ')}`
  }
}

/**
 * Accepting an invitation records the acceptance and the membership at the same moment; the feed
 * says it once ("Ada joined as Member"), not also "Ada accepted an invitation".
 */
export const oneEntryPerAcceptance = (
  items: readonly OrganizationActivityItem[],
): OrganizationActivityItem[] => {
  const joined = new Set(
    items
      .filter((item) => item.type === 'organization.member-added')
      .map((item) => `${item.actorUserId}@${item.at}`),
  )
  return items.filter(
    (item) =>
      item.type !== 'organization.invitation-accepted' || !joined.has(`${item.actorUserId}@${item.at}`),
  )
}
