import { describe, expect, it } from 'vitest'
import {
  describeOrganizationActivity,
  oneEntryPerAcceptance,
  peopleOf,
} from './describe-organization-activity.js'
import type { OrganizationActivityItem } from './organizations.api.js'
import { fullOrganization } from './organizations.fixture.js'
import { closing } from './sentence.js'

const entry = (type: string, actorUserId: string | null, details: Record<string, unknown>) =>
  ({ id: 'e', type, at: '2026-01-02T09:00:00.000Z', actorUserId, details }) as OrganizationActivityItem

describe('organization activity wording', () => {
  const people = peopleOf(fullOrganization())

  it('says someone joined a team when they added themselves, not "Ada added Ada"', () => {
    const self = entry('organization.team-member-added', 'user-1', { userId: 'user-1', teamName: 'Engines' })
    expect(describeOrganizationActivity(self, people)).toBe('Ada Lovelace joined the team Engines')
    const other = entry('organization.team-member-added', 'user-1', { userId: 'user-2', teamName: 'Engines' })
    expect(describeOrganizationActivity(other, people)).toBe(
      'Ada Lovelace added Grace Hopper to the team Engines',
    )
  })

  it('says the team made with the organization is its default team, and whom an invitation was for', () => {
    const made = entry('organization.team-created', 'user-1', { name: 'Acme', defaultTeam: true })
    expect(describeOrganizationActivity(made, people)).toBe('Ada Lovelace created the default team Acme')
    const later = entry('organization.team-created', 'user-1', { name: 'Engines' })
    expect(describeOrganizationActivity(later, people)).toBe('Ada Lovelace created the team Engines')
    const invited = entry('organization.invitation-created', 'user-1', {
      email: 'bob@example.com',
      role: 'member',
    })
    expect(describeOrganizationActivity(invited, people)).toBe(
      'Ada Lovelace invited bob@example.com as Member',
    )
  })

  it("words a directory's group changes, naming the group by its name or its team", () => {
    const by = { connectionId: 'okta', by: 'scim:okta/c1' }
    const said = (type: string, details: Record<string, unknown>) =>
      describeOrganizationActivity(entry(type, null, { groupId: 'team-1', ...by, ...details }), people)
    expect(said('scim.group-created', { displayName: 'Pilots', members: [] })).toBe(
      'The directory created the group Pilots',
    )
    expect(said('scim.group-updated', { displayName: 'Crew', previousDisplayName: 'Pilots' })).toBe(
      'The directory renamed the group Pilots to Crew',
    )
    expect(said('scim.group-members-changed', { added: ['u1', 'u2'], removed: ['u3'] })).toBe(
      'The directory added 2 people to the group Engines and took 1 person out',
    )
    expect(said('scim.group-members-changed', { added: [], removed: ['u3'] })).toBe(
      'The directory took 1 person out of the group Engines',
    )
    expect(said('scim.group-deleted', {})).toBe('The directory removed the group Engines')
  })

  it('starts upright when the person is erased', () => {
    const gone = entry('organization.member-removed', null, { reason: 'left' })
    expect(describeOrganizationActivity(gone, people)).toBe('A member left the organization')
  })

  it('never doubles the full stop of a name that has one', () => {
    expect(`You left ${closing('Acme Rockets & Co.')}`).toBe('You left Acme Rockets & Co.')
    expect(`You left ${closing('Acme')}`).toBe('You left Acme.')
  })

  it('says an accepted invitation once, as joining', () => {
    const at = '2026-01-03T10:00:00.000Z'
    const accepted = { ...entry('organization.invitation-accepted', 'user-2', {}), id: 'a', at }
    const added = {
      ...entry('organization.member-added', 'user-2', { userId: 'user-2', role: 'member' }),
      id: 'm',
      at,
    }
    const other = { ...entry('organization.invitation-accepted', 'user-3', {}), id: 'o' }
    const shown = oneEntryPerAcceptance([accepted, added, other])
    expect(shown.map((item) => item.id)).toEqual(['m', 'o'])
    expect(describeOrganizationActivity(added, people)).toMatch(/ joined as Member$/)
  })
})
