/// Events that hold personal data, for the encrypting store's tests: a person's registration and the
/// start of their session, each with metadata saying where the request came from. Every test file
/// passes its own address and browser, so a value it finds can only have come from its own events.

import { randomUUID } from 'node:crypto'
import type { EventMetadata } from '../../../domain/shared/metadata.js'
import type { EventToAppend } from '../event-store.js'

export type Origin = { ip: string; userAgent: string }

/** The metadata of a request `userId` made (or the system, for null), from `origin`. */
export const metadataFrom = (origin: Origin, userId: string | null): EventMetadata => ({
  actor: userId ? { type: 'user', userId } : { type: 'system' },
  ip: origin.ip,
  userAgent: origin.userAgent,
  correlationId: randomUUID(),
  causationId: null,
  at: '2030-01-01T00:00:00.000Z',
})

/** Events of `userId`, made from `origin`. */
export const personalEvents = (origin: Origin) => ({
  registered: (userId: string): EventToAppend => ({
    id: randomUUID(),
    type: 'user.registered',
    data: {
      userId,
      email: `${userId}@example.com`,
      name: userId,
      image: null,
      emailVerified: false,
      credential: null,
    },
    metadata: metadataFrom(origin, userId),
  }),
  sessionStarted: (userId: string): EventToAppend => ({
    id: randomUUID(),
    type: 'session.started',
    data: {
      sessionId: `s-${userId}`,
      userId,
      tokenHash: 'ab'.repeat(32),
      expiresAt: '2030-01-08T00:00:00.000Z',
      ipAddress: origin.ip,
      userAgent: origin.userAgent,
      rememberMe: false,
    },
    metadata: metadataFrom(origin, userId),
  }),
})
