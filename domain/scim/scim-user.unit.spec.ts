import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { refuseDeactivated, type ScimUserEvent, scimUserClaims, scimUserDecider } from './scim-user.js'

const { given } = specFor(scimUserDecider)
const owner = { userId: 'u1', organizationId: 'o1', connectionId: 'okta' }
const provisioned: ScimUserEvent = {
  type: 'scim.user-provisioned',
  data: { ...owner, userName: 'ada@acme.test', externalId: 'ext-1', active: true },
}
const update = (changes: object = {}) => ({
  type: 'update-scim-user' as const,
  connectionId: 'okta',
  userName: 'ada@acme.test',
  externalId: 'ext-1',
  active: true,
  accountAttributes: [],
  ...changes,
})

describe('scim-user decider', () => {
  it('provisions a person once; provisioned inactive, they start deactivated', () => {
    given([])
      .when({
        type: 'provision-scim-user',
        ...owner,
        userName: 'ada@acme.test',
        externalId: null,
        active: false,
      })
      .then([
        {
          type: 'scim.user-provisioned',
          data: { ...owner, userName: 'ada@acme.test', externalId: null, active: false },
        },
        { type: 'scim.user-deactivated', data: owner },
      ])
    given([provisioned])
      .when({ type: 'provision-scim-user', ...owner, userName: 'x', externalId: null, active: true })
      .thenThrows('SCIM_USER_ALREADY_EXISTS')
  })

  it('records what a call changed, and deactivates or reactivates on active', () => {
    given([provisioned])
      .when(update({ externalId: 'ext-2', accountAttributes: ['name'] }))
      .then([
        {
          type: 'scim.user-updated',
          data: {
            ...owner,
            userName: 'ada@acme.test',
            externalId: 'ext-2',
            previousUserName: 'ada@acme.test',
            previousExternalId: 'ext-1',
            attributes: ['externalId', 'name'],
          },
        },
      ])
    given([provisioned])
      .when(update({ active: false }))
      .then([{ type: 'scim.user-deactivated', data: owner }])
    given([provisioned, { type: 'scim.user-deactivated', data: owner }])
      .when(update({ active: true }))
      .then([{ type: 'scim.user-reactivated', data: owner }])
    given([provisioned]).when(update()).then([])
  })

  it("hides one connection's people from another: not found, never forbidden", () => {
    given([provisioned])
      .when(update({ connectionId: 'entra' }))
      .thenThrows('SCIM_USER_NOT_FOUND')
    given([provisioned])
      .when({ type: 'deprovision-scim-user', connectionId: 'entra' })
      .thenThrows('SCIM_USER_NOT_FOUND')
    given([]).when(update()).thenThrows('SCIM_USER_NOT_FOUND')
  })

  it('deprovisions once, giving up the userName and externalId', () => {
    const gone: ScimUserEvent = {
      type: 'scim.user-deprovisioned',
      data: { ...owner, userName: 'ada@acme.test', externalId: 'ext-1' },
    }
    given([provisioned]).when({ type: 'deprovision-scim-user', connectionId: 'okta' }).then([gone])
    given([provisioned, gone])
      .when({ type: 'deprovision-scim-user', connectionId: 'okta' })
      .thenThrows('SCIM_USER_NOT_FOUND')
    expect(scimUserClaims([gone]).map((claim) => [claim.op, claim.scope, claim.value])).toEqual([
      ['release', 'scim.user-name', 'okta:ada@acme.test'],
      ['release', 'scim.external-id', 'okta:ext-1'],
    ])
  })

  it('claims a userName per connection, case-insensitively, and moves the claim on a rename', () => {
    expect(scimUserClaims([provisioned]).map((claim) => claim.value)).toEqual([
      'okta:ada@acme.test',
      'okta:ext-1',
    ])
    const renamed = scimUserDecider.decide(
      update({ userName: 'Augusta@acme.test' }),
      scimUserDecider.evolve({ status: 'none' }, provisioned),
    )
    expect(scimUserClaims(renamed).map((claim) => [claim.op, claim.value])).toEqual([
      ['release', 'okta:ada@acme.test'],
      ['claim', 'okta:augusta@acme.test'],
    ])
  })

  it('refuses the sign-in of a deactivated person with USER_DEACTIVATED', () => {
    expect(() => refuseDeactivated({ deactivated: true })).toThrow(
      expect.objectContaining({ code: 'USER_DEACTIVATED', status: 403 }),
    )
    expect(() => refuseDeactivated({ deactivated: false })).not.toThrow()
  })
})
