import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type PasskeyEvent, passkeyClaims, passkeyDecider, useWasAccepted } from './passkey.js'

const { given } = specFor(passkeyDecider)
const NOW = '2030-01-01T00:00:00.000Z'
const credential = {
  credentialId: 'cred-1',
  publicKey: 'pQECAyYgASFYIA==',
  deviceType: 'singleDevice' as const,
  backedUp: false,
  transports: ['internal'],
  aaguid: null,
}
const registered = (counter = 0): PasskeyEvent => ({
  type: 'passkey.registered',
  data: { passkeyId: 'pk1', userId: 'u1', name: 'Laptop', registeredAt: NOW, counter, ...credential },
})
const used = (counter: number): PasskeyEvent => ({
  type: 'passkey.used',
  data: { passkeyId: 'pk1', userId: 'u1', counter, backedUp: false, usedAt: NOW },
})
const deleted: PasskeyEvent = {
  type: 'passkey.deleted',
  data: { passkeyId: 'pk1', userId: 'u1', credentialId: 'cred-1', deletedAt: NOW },
}
const use = (counter: number) => ({ type: 'use-passkey' as const, counter, backedUp: false, now: NOW })

describe('registering a passkey', () => {
  it('records the credential, its key and the name the owner gave it', () =>
    given([])
      .when({
        type: 'register-passkey',
        passkeyId: 'pk1',
        userId: 'u1',
        name: 'Laptop',
        now: NOW,
        counter: 0,
        ...credential,
      })
      .then([registered()]))

  it('refuses a second registration on the same stream', () =>
    given([registered()])
      .when({
        type: 'register-passkey',
        passkeyId: 'pk1',
        userId: 'u1',
        name: null,
        now: NOW,
        counter: 0,
        ...credential,
      })
      .thenThrows('FAILED_TO_VERIFY_REGISTRATION'))

  it('claims the credential id on registration and releases it on deletion', () => {
    expect(passkeyClaims([registered()])).toEqual([
      { op: 'claim', scope: 'passkey.credential', value: 'cred-1', owner: 'pk1' },
    ])
    expect(passkeyClaims([deleted])).toEqual([
      { op: 'release', scope: 'passkey.credential', value: 'cred-1', owner: 'pk1' },
    ])
  })
})

describe('renaming and removing', () => {
  it('lets the owner rename it', () =>
    given([registered()])
      .when({ type: 'rename-passkey', requestedBy: 'u1', name: 'Phone', now: NOW })
      .then([
        { type: 'passkey.renamed', data: { passkeyId: 'pk1', userId: 'u1', name: 'Phone', renamedAt: NOW } },
      ]))

  it("refuses to rename someone else's passkey, as better-auth: 401", () =>
    given([registered()])
      .when({ type: 'rename-passkey', requestedBy: 'u2', name: 'Mine now', now: NOW })
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY'))

  it("refuses to remove someone else's passkey", () =>
    given([registered()])
      .when({ type: 'delete-passkey', requestedBy: 'u2', now: NOW })
      .thenThrows('UNAUTHORIZED'))

  it('lets the owner remove it, once', () => {
    given([registered()]).when({ type: 'delete-passkey', requestedBy: 'u1', now: NOW }).then([deleted])
    given([registered(), deleted])
      .when({ type: 'delete-passkey', requestedBy: 'u1', now: NOW })
      .thenThrows('PASSKEY_NOT_FOUND')
  })

  it('does not know a passkey that was never registered', () =>
    given([])
      .when({ type: 'rename-passkey', requestedBy: 'u1', name: 'x', now: NOW })
      .thenThrows('PASSKEY_NOT_FOUND'))
})

describe('signing in with it', () => {
  it('accepts a counter that moved forward and remembers it', () =>
    given([registered(3)])
      .when(use(4))
      .then([used(4)]))

  it('accepts an authenticator that does not count (both zero), as synced passkeys do', () =>
    given([registered(0)])
      .when(use(0))
      .then([used(0)]))

  it('records a counter that went backwards as a suspected clone, and allows no sign-in', () => {
    const suspected: PasskeyEvent = {
      type: 'passkey.clone-suspected',
      data: { passkeyId: 'pk1', userId: 'u1', storedCounter: 7, presentedCounter: 5, at: NOW },
    }
    given([registered(3), used(7)])
      .when(use(5))
      .then([suspected])
    expect(useWasAccepted([suspected])).toBe(false)
    expect(useWasAccepted([used(8)])).toBe(true)
  })

  it('treats a repeated counter as a clone too', () =>
    given([registered(2)])
      .when(use(2))
      .then([
        {
          type: 'passkey.clone-suspected',
          data: { passkeyId: 'pk1', userId: 'u1', storedCounter: 2, presentedCounter: 2, at: NOW },
        },
      ]))

  it('refuses a passkey removed meanwhile, as an unknown one', () =>
    given([registered(), deleted]).when(use(1)).thenThrows('PASSKEY_NOT_FOUND'))
})
