import type { SessionAnswer } from '../features/session/session.api.js'

export const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

/** A get-session answer as the server sends it (token included; the portal drops it on receipt). */
export const signedInAs = (overrides: Partial<SessionAnswer['user']> = {}): SessionAnswer => ({
  session: {
    id: 'session-1',
    userId: 'user-1',
    token: 'handle-1',
    createdAt: '2026-01-10T09:00:00.000Z',
    updatedAt: '2026-01-10T09:00:00.000Z',
    expiresAt: '2026-01-17T09:00:00.000Z',
    ipAddress: '127.0.0.1',
    userAgent: CHROME_LINUX,
  },
  user: {
    id: 'user-1',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    image: null,
    emailVerified: true,
    createdAt: '2026-01-01T09:00:00.000Z',
    updatedAt: '2026-01-01T09:00:00.000Z',
    ...overrides,
  },
})
