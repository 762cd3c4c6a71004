import { describe, expect, it } from 'vitest'
import { publicEventTypes, toPublicEvent } from './catalogue.js'

const metadata = (erased: boolean) => ({
  actor: { type: 'user' as const, userId: 'u1' },
  ip: null,
  userAgent: null,
  correlationId: 'c',
  causationId: null,
  at: '2026-11-28T00:00:00.000Z',
  ...(erased ? { erased: true } : {}),
})

const registered = (erased: boolean) => ({
  id: 'e2',
  type: 'passkey.registered',
  data: {
    passkeyId: 'p1',
    userId: 'u1',
    name: erased ? null : 'Ada’s key',
    registeredAt: '2026-11-28T00:00:00.000Z',
    credentialId: 'cred-1',
    publicKey: 'pQECAyYg',
    counter: 0,
    deviceType: 'multiDevice',
    backedUp: true,
    transports: ['internal'],
    aaguid: null,
  },
  metadata: metadata(erased),
})

describe('second factors and passkeys in the public catalogue', () => {
  it('lists two-factor.enabled, two-factor.disabled, passkey.added, passkey.updated and passkey.removed', () => {
    expect(publicEventTypes()).toEqual(
      expect.arrayContaining([
        'two-factor.enabled',
        'two-factor.disabled',
        'passkey.added',
        'passkey.updated',
        'passkey.removed',
      ]),
    )
  })

  it('a passkey added carries its name while its owner exists, never its key or credential id', () => {
    expect(toPublicEvent(registered(false))).toEqual({
      id: 'e2',
      type: 'passkey.added',
      occurredAt: '2026-11-28T00:00:00.000Z',
      subject: 'p1',
      data: { passkeyId: 'p1', userId: 'u1', name: 'Ada’s key', deviceType: 'multiDevice', backedUp: true },
    })
    expect(toPublicEvent(registered(true))?.data).toEqual({
      passkeyId: 'p1',
      userId: 'u1',
      deviceType: 'multiDevice',
      backedUp: true,
    })
  })

  it('a factor turned on says how; its secret, codes, challenges and trusted devices stay internal', () => {
    const event = (type: string, data: object) => ({ id: 'e3', type, data, metadata: metadata(false) })
    expect(
      toPublicEvent(event('two-factor.enabled', { userId: 'u1', method: 'totp', enabledAt: 'x' }))?.data,
    ).toEqual({ userId: 'u1', method: 'totp' })
    for (const type of [
      'two-factor.totp-secret-created',
      'two-factor.backup-codes-generated',
      'two-factor.code-accepted',
      'two-factor.challenge-started',
      'two-factor.device-trusted',
      'passkey.used',
      'passkey.clone-suspected',
    ])
      expect(toPublicEvent(event(type, { userId: 'u1' })), type).toBeNull()
  })
})
