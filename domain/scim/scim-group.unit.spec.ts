import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import {
  type ScimGroupEvent,
  type ScimGroupOperation,
  scimGroupClaims,
  scimGroupDecider,
} from './scim-group.js'

const { given } = specFor(scimGroupDecider)
const owner = { groupId: 'g1', organizationId: 'o1', connectionId: 'okta' }
const created: ScimGroupEvent = {
  type: 'scim.group-created',
  data: { ...owner, displayName: 'Eng', externalId: 'ext-eng', members: ['ada'] },
}
const change = (operations: ScimGroupOperation[], provisioned: string[] = []) => ({
  type: 'change-scim-group' as const,
  connectionId: 'okta',
  provisioned,
  operations,
})

describe('scim-group decider', () => {
  it('creates a group once, with members the connection provisioned only', () => {
    const create = {
      type: 'create-scim-group' as const,
      ...owner,
      displayName: ' Eng ',
      externalId: 'ext-eng',
      members: ['ada', 'ada'],
      provisioned: ['ada'],
    }
    given([]).when(create).then([created])
    given([created]).when(create).thenThrows('SCIM_GROUP_ALREADY_EXISTS', { status: 409 })
    given([])
      .when({ ...create, members: ['zed'] })
      .thenThrows('SCIM_GROUP_MEMBER_INVALID', { status: 400 })
    given([])
      .when({ ...create, displayName: '  ' })
      .thenThrows('SCIM_GROUP_DISPLAY_NAME_EMPTY', { status: 400 })
    // Groups are teams: with teams turned off, neither a new group nor a change is taken.
    given([])
      .when({ ...create, teamsEnabled: false })
      .thenThrows('SCIM_GROUPS_NEED_TEAMS', { status: 403 })
    given([created])
      .when({ ...change([{ op: 'set-display-name', value: 'Ops' }]), teamsEnabled: false })
      .thenThrows('SCIM_GROUPS_NEED_TEAMS', { status: 403 })
  })

  it('applies a patch to the group as its events have it: only the difference is recorded', () => {
    const bobAdded: ScimGroupEvent = {
      type: 'scim.group-members-changed',
      data: { ...owner, added: ['bob'], removed: [] },
    }
    // A second patch decided after bob's addition keeps bob: nothing is lost between two patches.
    given([created, bobAdded])
      .when(
        change(
          [
            { op: 'add-members', userIds: ['cy'] },
            { op: 'remove-members', userIds: ['ada'] },
          ],
          ['cy'],
        ),
      )
      .then([{ type: 'scim.group-members-changed', data: { ...owner, added: ['cy'], removed: ['ada'] } }])
    given([created])
      .when(change([{ op: 'add-members', userIds: ['ada'] }], ['ada']))
      .then([])
    given([created])
      .when(
        change([
          { op: 'set-display-name', value: 'Engineers' },
          { op: 'set-external-id', value: null },
        ]),
      )
      .then([
        {
          type: 'scim.group-updated',
          data: {
            ...owner,
            displayName: 'Engineers',
            externalId: null,
            previousDisplayName: 'Eng',
            previousExternalId: 'ext-eng',
          },
        },
      ])
    given([created])
      .when(change([{ op: 'replace-members', userIds: ['zed'] }]))
      .thenThrows('SCIM_GROUP_MEMBER_INVALID')
  })

  it('keeps a connection to its own groups, and deletes with the members it had', () => {
    given([created])
      .when({ ...change([]), connectionId: 'entra' })
      .thenThrows('SCIM_GROUP_NOT_FOUND', { status: 404 })
    given([created])
      .when({ type: 'delete-scim-group', connectionId: 'okta' })
      .then([
        {
          type: 'scim.group-deleted',
          data: { ...owner, displayName: 'Eng', externalId: 'ext-eng', members: ['ada'] },
        },
      ])
    given([
      created,
      { type: 'scim.group-deleted', data: { ...owner, displayName: 'Eng', externalId: null, members: [] } },
    ])
      .when({ type: 'delete-scim-group', connectionId: 'okta' })
      .thenThrows('SCIM_GROUP_NOT_FOUND')
  })

  it('claims the displayName and externalId per connection, case-insensitively, and moves them on rename', () => {
    expect(scimGroupClaims([created])).toEqual([
      { op: 'claim', scope: 'scim.group-display-name', value: 'okta:eng', owner: 'g1' },
      { op: 'claim', scope: 'scim.group-external-id', value: 'okta:ext-eng', owner: 'g1' },
    ])
    const renamed: ScimGroupEvent = {
      type: 'scim.group-updated',
      data: {
        ...owner,
        displayName: 'ENG',
        externalId: 'x',
        previousDisplayName: 'Eng',
        previousExternalId: 'ext-eng',
      },
    }
    expect(scimGroupClaims([renamed])).toEqual([
      { op: 'release', scope: 'scim.group-external-id', value: 'okta:ext-eng', owner: 'g1' },
      { op: 'claim', scope: 'scim.group-external-id', value: 'okta:x', owner: 'g1' },
    ])
  })
})
