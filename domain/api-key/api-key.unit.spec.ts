import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type ApiKeyEvent, type ApiKeySettings, apiKeyDecider } from './api-key.js'
import { changesForUpdate, grantsPermissions, settingsForNewKey } from './api-key-rules.js'

const { given } = specFor(apiKeyDecider)
const NOW = '2030-01-01T00:00:00.000Z'
const LATER = '2030-01-03T00:00:00.000Z'
const settings: ApiKeySettings = {
  name: 'ci',
  expiresAt: '2030-01-02T00:00:00.000Z',
  remaining: null,
  refillAmount: null,
  refillInterval: null,
  rateLimitEnabled: true,
  rateLimitTimeWindow: 86_400_000,
  rateLimitMax: 10,
  permissions: null,
  metadata: null,
}
const created: ApiKeyEvent = {
  type: 'api-key.created',
  data: {
    keyId: 'k1',
    userId: 'ada',
    prefix: null,
    start: 'abcdef',
    keyHash: 'h',
    ...settings,
    createdAt: NOW,
  },
}
const ref = { keyId: 'k1', userId: 'ada' }

describe('the API-key aggregate', () => {
  it('creates a key once: a retried creation adds nothing', () => {
    const command = {
      type: 'create-api-key' as const,
      keyId: 'k1',
      owner: { userId: 'ada' },
      prefix: null,
      start: 'abcdef',
      keyHash: 'h',
      settings,
      now: NOW,
      userExists: true,
    }
    given([]).when(command).then([created])
    given([created]).when(command).then([])
  })

  it('refuses a key for a user who does not exist (a backend may name anyone)', () => {
    given([])
      .when({
        type: 'create-api-key',
        keyId: 'k1',
        owner: { userId: 'nobody' },
        prefix: null,
        start: 'abcdef',
        keyHash: 'h',
        settings,
        now: NOW,
        userExists: false,
      })
      .thenThrows('USER_NOT_FOUND', { status: 404 })
  })

  it("answers someone else's key as not found and leaves it alone", () => {
    given([created])
      .when({ type: 'update-api-key', owner: { userId: 'eve' }, changes: { name: 'x' } })
      .thenThrows('KEY_NOT_FOUND')
    given([created])
      .when({ type: 'delete-api-key', owner: { userId: 'eve' } })
      .thenThrows('KEY_NOT_FOUND')
  })

  it('records a change and the enabled switch as separate events; the same switch twice is nothing', () => {
    given([created])
      .when({ type: 'update-api-key', owner: { userId: 'ada' }, changes: { name: 'x' }, enabled: false })
      .then([
        { type: 'api-key.updated', data: { ...ref, changes: { name: 'x' } } },
        { type: 'api-key.disabled', data: ref },
      ])
    given([created])
      .when({ type: 'update-api-key', owner: { userId: 'ada' }, changes: {}, enabled: true })
      .then([])
  })

  it('expires a key only once its time has come, and a gone key is not found', () => {
    given([created]).when({ type: 'expire-api-key', now: NOW }).then([])
    given([created])
      .when({ type: 'expire-api-key', now: '2030-01-02T00:00:01.000Z' })
      .then([{ type: 'api-key.expired', data: { ...ref, expiresAt: settings.expiresAt as string } }])
    const deleted: ApiKeyEvent = { type: 'api-key.deleted', data: { ...ref, reason: 'deleted' } }
    given([created, deleted])
      .when({ type: 'update-api-key', owner: { userId: 'ada' }, changes: { name: 'x' } })
      .thenThrows('KEY_NOT_FOUND')
    given([created, deleted]).when({ type: 'exhaust-api-key' }).then([])
  })

  it('summarises uses, never an empty summary', () => {
    given([created])
      .when({ type: 'record-api-key-use', count: 3, from: NOW, to: NOW })
      .then([{ type: 'api-key.used', data: { ...ref, count: 3, from: NOW, to: NOW } }])
    given([created]).when({ type: 'record-api-key-use', count: 0, from: NOW, to: NOW }).then([])
  })

  it('records the uses not yet in the log before the end of a key, and late uses after it', () => {
    const uses = { count: 4, from: NOW, to: LATER }
    const used: ApiKeyEvent = { type: 'api-key.used', data: { ...ref, ...uses } }
    given([created])
      .when({ type: 'delete-api-key', owner: { userId: 'ada' }, unrecorded: uses })
      .then([used, { type: 'api-key.deleted', data: { ...ref, reason: 'deleted' } }])
    given([created])
      .when({ type: 'exhaust-api-key', unrecorded: uses })
      .then([used, { type: 'api-key.deleted', data: { ...ref, reason: 'usage-exhausted' } }])
    const deleted: ApiKeyEvent = { type: 'api-key.deleted', data: { ...ref, reason: 'deleted' } }
    // Another instance's uses, answered before the deletion reached it, still enter the log.
    given([created, deleted])
      .when({ type: 'record-api-key-use', ...uses })
      .then([used])
    given([])
      .when({ type: 'record-api-key-use', ...uses })
      .then([])
  })
})

describe("an organization's key", () => {
  const orgCreated: ApiKeyEvent = {
    type: 'api-key.created',
    data: {
      keyId: 'k2',
      userId: null,
      organizationId: 'acme',
      byUserId: 'ada',
      prefix: null,
      start: 'abcdef',
      keyHash: 'h2',
      ...settings,
      createdAt: NOW,
    },
  }
  const orgRef = { keyId: 'k2', userId: null, organizationId: 'acme' }

  it('belongs to the organization and names the member who acted', () => {
    given([])
      .when({
        type: 'create-api-key',
        keyId: 'k2',
        owner: { userId: null, organizationId: 'acme' },
        byUserId: 'ada',
        prefix: null,
        start: 'abcdef',
        keyHash: 'h2',
        settings,
        now: NOW,
        userExists: true,
      })
      .then([orgCreated])
    given([orgCreated])
      .when({
        type: 'update-api-key',
        owner: { userId: null, organizationId: 'acme' },
        byUserId: 'bob',
        changes: {},
        enabled: false,
      })
      .then([{ type: 'api-key.disabled', data: { ...orgRef, byUserId: 'bob' } }])
  })

  it('is not found by its creator as a personal key, nor by another organization', () => {
    given([orgCreated])
      .when({ type: 'delete-api-key', owner: { userId: 'ada' } })
      .thenThrows('KEY_NOT_FOUND')
    given([orgCreated])
      .when({ type: 'delete-api-key', owner: { userId: null, organizationId: 'other' }, byUserId: 'ada' })
      .thenThrows('KEY_NOT_FOUND')
    // Nor is a personal key reachable as an organization's.
    given([created])
      .when({ type: 'delete-api-key', owner: { userId: null, organizationId: 'acme' }, byUserId: 'ada' })
      .thenThrows('KEY_NOT_FOUND')
  })

  it('expires with nobody named as having acted', () => {
    given([orgCreated])
      .when({ type: 'expire-api-key', now: LATER })
      .then([{ type: 'api-key.expired', data: { ...orgRef, expiresAt: settings.expiresAt as string } }])
  })
})

describe('the rules for new and changed keys', () => {
  const options = { enableMetadata: false, now: new Date(NOW) }
  const codeOf = (run: () => unknown) => {
    try {
      run()
      return null
    } catch (error) {
      return (error as { code: string }).code
    }
  }

  it('gives a user key the default limit of 10 a day; a refill without remaining leaves it unlimited', () => {
    expect(settingsForNewKey({}, 'user', options)).toMatchObject({
      rateLimitMax: 10,
      rateLimitTimeWindow: 86_400_000,
    })
    // As better-auth 1.7.5, whose schema defaults `remaining` to null.
    expect(settingsForNewKey({ refillAmount: 5, refillInterval: 1000 }, 'server', options)).toMatchObject({
      remaining: null,
      refillAmount: 5,
    })
    expect(
      settingsForNewKey({ remaining: 3, refillAmount: 5, refillInterval: 1000 }, 'server', options),
    ).toMatchObject({ remaining: 3 })
  })

  it('bounds expiry to 1..365 days', () => {
    expect(codeOf(() => settingsForNewKey({ expiresIn: 86_399 }, 'user', options))).toBe(
      'EXPIRES_IN_IS_TOO_SMALL',
    )
    expect(codeOf(() => settingsForNewKey({ expiresIn: 365 * 86_400 + 1 }, 'user', options))).toBe(
      'EXPIRES_IN_IS_TOO_LARGE',
    )
    expect(settingsForNewKey({ expiresIn: 86_400 }, 'user', options).expiresAt).toBe(
      '2030-01-02T00:00:00.000Z',
    )
  })

  it('keeps server-only properties from users, and metadata off unless enabled', () => {
    expect(codeOf(() => settingsForNewKey({ rateLimitEnabled: false }, 'user', options))).toBe(
      'SERVER_ONLY_PROPERTY',
    )
    expect(codeOf(() => settingsForNewKey({ remaining: null }, 'user', options))).toBeNull()
    expect(codeOf(() => settingsForNewKey({ metadata: { a: 1 } }, 'user', options))).toBe('METADATA_DISABLED')
    expect(
      settingsForNewKey({ metadata: { a: 1 } }, 'user', { ...options, enableMetadata: true }).metadata,
    ).toEqual({ a: 1 })
    expect(codeOf(() => changesForUpdate({ remaining: 4 }, 'user', options))).toBe('SERVER_ONLY_PROPERTY')
    expect(codeOf(() => changesForUpdate({}, 'user', options))).toBe('NO_VALUES_TO_UPDATE')
  })

  it('grants only the actions a key holds, for every resource asked', () => {
    const held = { files: ['read', 'write'], users: ['read'] }
    expect(grantsPermissions(held, { files: ['read'], users: ['read'] })).toBe(true)
    expect(grantsPermissions(held, { files: ['delete'] })).toBe(false)
    expect(grantsPermissions(held, { billing: ['read'] })).toBe(false)
    expect(grantsPermissions(null, { files: ['read'] })).toBe(false)
    // As better-auth's role().authorize: asking for nothing grants nothing.
    expect(grantsPermissions(held, {})).toBe(false)
    expect(grantsPermissions(held, { files: [] })).toBe(false)
  })
})

describe('the API-key aggregate: refusals the use cases no longer make', () => {
  it('answers a key that was never created as not found, to its would-be owner too', () => {
    given([])
      .when({ type: 'update-api-key', owner: { userId: 'ada' }, changes: { name: 'x' } })
      .thenThrows('KEY_NOT_FOUND', { status: 404 })
    given([])
      .when({ type: 'delete-api-key', owner: { userId: 'ada' } })
      .thenThrows('KEY_NOT_FOUND')
  })
})
