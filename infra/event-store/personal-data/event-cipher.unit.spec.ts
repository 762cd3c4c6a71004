/// Sealing and opening one event, without a database: every declared field is sealed and comes
/// back, nothing else changes, absent and null stay so, and without the key the event reads erased.

import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { declarationOf, knownEventTypes } from '../../../domain/events.js'
import type { EventMetadata } from '../../../domain/shared/metadata.js'
import { generateDataKey } from '../../crypto/data-keys.js'
import { type CipherEvent, openEvent, sealEvent, subjectToSeal } from './event-cipher.js'

const metadata = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  actor: { type: 'anonymous' },
  ip: '198.51.100.4',
  userAgent: 'Agent/1',
  correlationId: 'c-1',
  causationId: null,
  at: '2030-01-01T00:00:00.000Z',
  ...overrides,
})

/** Data holding a distinct string at every declared path of `type`, plus a non-personal field. */
const dataFor = (type: string, paths: readonly string[]): Record<string, unknown> => {
  // Subjects other than the user come from these: an invitee's address key, a deletion notice's own.
  const data: Record<string, unknown> = {
    userId: 'u-1',
    inviteeSubject: 'u-1',
    noticeId: 'n-1',
    // A webhook endpoint is the subject of its own events: its secret is sealed under its own key.
    endpointId: 'e-1',
    // An SSO provider is the subject of its secrets: sealed under the provider's own key.
    providerId: 'p-1',
    tokenHash: 'not-personal',
  }
  for (const path of paths) {
    const [head = '', child] = path.split('.')
    if (child) data[head] = { accountId: 'acc-1', [child]: `${type}:${path}` }
    else data[head] = `${type}:${path}`
  }
  return data
}

describe('event cipher', () => {
  const key = generateDataKey()

  // The subject acts on their own account: every declared subject resolves to them.
  const own = metadata({ actor: { type: 'user', userId: 'u-1' } })
  const aboutSomeone = knownEventTypes().filter(
    (type) => declarationOf(type)?.subject({ userId: 'u-1' }, own) !== null,
  )

  it('leaves events about nobody (a signing key, say) unsealed, and they hold nothing personal', () => {
    for (const type of knownEventTypes().filter((known) => !aboutSomeone.includes(known))) {
      expect(declarationOf(type)?.personal).toEqual([])
      const event: CipherEvent = { id: randomUUID(), type, data: dataFor(type, []), metadata: own }
      expect(subjectToSeal(event)).toBeNull()
    }
  })

  for (const type of aboutSomeone) {
    const paths = declarationOf(type)?.personal ?? []
    it(`seals and opens ${type}`, () => {
      const data = dataFor(type, paths)
      const event: CipherEvent = { id: randomUUID(), type, data, metadata: own }
      const subject = declarationOf(type)?.subject(data, own)
      expect(subject).toMatch(/^(u-1|deletion-notice-n-1|webhook-endpoint-e-1|sso-provider-p-1)$/)
      expect(subjectToSeal(event)).toBe(subject)
      const sealed = sealEvent(event, key)
      const text = JSON.stringify(sealed)
      for (const path of paths) expect(text).not.toContain(`${type}:${path}`)
      expect(text).not.toContain('198.51.100.4')
      expect(text).toContain('not-personal')
      expect(openEvent(sealed, key)).toEqual(event)
    })
  }

  it('keeps absent fields absent and null fields null', () => {
    const event: CipherEvent = {
      id: randomUUID(),
      type: 'user.profile-updated',
      data: { userId: 'u-1', image: null },
      metadata: metadata({ userAgent: null }),
    }
    const sealed = sealEvent(event, key)
    expect(sealed.data).toEqual({ userId: 'u-1', image: null })
    expect(sealed.metadata.userAgent).toBeNull()
    expect(openEvent(sealed, key)).toEqual(event)
  })

  it('reads an event sealed under a lost key as erased', () => {
    const event: CipherEvent = {
      id: randomUUID(),
      type: 'user.email-verified',
      data: { userId: 'u-1', email: 'a@example.com' },
      metadata: metadata(),
    }
    const sealed = sealEvent(event, key)
    const expected = {
      ...event,
      data: { userId: 'u-1', email: null },
      metadata: { ...metadata(), ip: null, userAgent: null, erased: true },
    }
    expect(openEvent(sealed, null)).toEqual(expected)
    expect(openEvent(sealed, generateDataKey())).toEqual(expected)
  })

  it('needs no key for an event without a subject or personal values', () => {
    const system = metadata({ actor: { type: 'system' }, ip: null, userAgent: null })
    expect(
      subjectToSeal({ id: 'e', type: 'session.refreshed', data: { sessionId: 's' }, metadata: system }),
    ).toBeNull()
    expect(
      subjectToSeal({
        id: 'e',
        type: 'user.deleted',
        data: { userId: 'u-1', email: null },
        metadata: system,
      }),
    ).toBeNull()
    expect(() =>
      subjectToSeal({
        id: 'e',
        type: 'user.email-verified',
        data: { email: 'a@example.com' },
        metadata: system,
      }),
    ).toThrow(/no userId/)
  })
})
