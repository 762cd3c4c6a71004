/// Tessera's side of `verify-totp alone` (bench/factor-figures-totp.ts): tens of thousands of people
/// with the authenticator factor on, each with a sign-in waiting on its second step, written in
/// minutes instead of hours of password hashing. One person goes through the real routes first
/// (sign-up, `/two-factor/enable`, a first `/two-factor/verify-totp`, a password sign-in that
/// answers `twoFactorRedirect`); the events that recorded are then copied for each new person
/// through the event store's own append path (bench/replay-log.ts's `copyParts`: new ids, personal
/// data, the TOTP secret included, sealed under each new person's key), and the server's projector
/// builds their read models as it would for any append. Each copy's pending sign-in gets a token the
/// harness chose, so the harness can hand that person's browser its two-factor cookie, signed with
/// the server's secret as the server signs it. All copies share the template's TOTP secret; each
/// still has its own sealed copy of it and its own replay state.

import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { databaseTargetOf, openEventStore } from '../app/server/open-event-store.js'
import { loadConfig } from '../infra/config/config.js'
import { signCookieValue } from '../infra/crypto/signed-cookie.js'
import { sha256Hex } from '../infra/crypto/tokens.js'
import { openDatabase } from '../infra/db/database.js'
import type {
  EventStore,
  EventToAppend,
  RecordedEvent,
  StreamAppend,
} from '../infra/event-store/event-store.js'
import type { Database } from '../projections/database.js'
import { findUserById } from '../projections/users/users.repository.js'
import type { SeededSecondSteps } from './factor-figures-totp.js'
import { templateSignIn } from './factor-figures-totp-template.js'
import { copyParts, vary } from './replay-log.js'

const COPIES_PER_APPEND = 25
const CHALLENGE_LIFETIME_MS = 3_600_000
const PROJECTION_TIMEOUT_MS = 600_000

type Part = { stream: string; events: EventToAppend[] }

/** The template person's events, in order, cut where a stream would repeat within one append. */
const segmentsOf = (events: readonly RecordedEvent[]): Part[][] => {
  const segments: Part[][] = [[]]
  for (const event of events) {
    const segment = segments.at(-1) as Part[]
    const appended = {
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
    } as EventToAppend
    const last = segment.at(-1)
    if (last?.stream === event.streamId) last.events.push(appended)
    else if (segment.some((part) => part.stream === event.streamId))
      segments.push([{ stream: event.streamId, events: [appended] }])
    else segment.push({ stream: event.streamId, events: [appended] })
  }
  return segments
}

/** The copy's pending sign-in names the token the harness chose, and lives an hour. */
const withChallenge = (parts: StreamAppend[], tokenHash: string, expiresAt: string): StreamAppend[] =>
  parts.map((part) => ({
    ...part,
    events: part.events.map((event) =>
      event.type === 'two-factor.challenge-started'
        ? ({ ...event, data: { ...event.data, challengeHash: tokenHash, expiresAt } } as EventToAppend)
        : event,
    ),
  }))

const appendCopies = async (
  store: EventStore,
  segments: Part[][],
  count: number,
): Promise<{ copy: number; token: string }[]> => {
  const pending: { copy: number; token: string }[] = []
  const expiresAt = new Date(Date.now() + CHALLENGE_LIFETIME_MS).toISOString()
  let reportedAt = Date.now()
  for (let first = 0; first < count; first += COPIES_PER_APPEND) {
    const last = Math.min(count, first + COPIES_PER_APPEND)
    const tokens = Array.from({ length: last - first }, () => randomBytes(24).toString('base64url'))
    for (const segment of segments) {
      const appends: StreamAppend[] = []
      for (let copy = first; copy < last; copy++)
        appends.push(
          ...withChallenge(copyParts(segment, copy), sha256Hex(tokens[copy - first] ?? ''), expiresAt),
        )
      await store.appendToStreams(appends)
    }
    tokens.forEach((token, index) => {
      pending.push({ copy: first + index, token })
    })
    if (Date.now() - reportedAt > 10_000) {
      reportedAt = Date.now()
      console.log(`  appended ${last}/${count} people with a pending second step`)
    }
  }
  return pending
}

const openStore = async (databaseUrl: string, secret: string, cwd: string) => {
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      AUTH_SECRET: secret,
      DATABASE_URL: databaseUrl,
      DATA_DIR: join(cwd, 'data'),
      SMTP_URL: 'smtp://127.0.0.1:9',
      LOG_LEVEL: 'warn',
    },
    { cwd },
  )
  const database = await openDatabase<Database>(databaseTargetOf(config))
  const { store } = await openEventStore(database as never, config)
  return { config, database, store }
}

const waitForReadModel = async (
  database: { db: Parameters<typeof findUserById>[0] },
  userId: string,
): Promise<void> => {
  const deadline = Date.now() + PROJECTION_TIMEOUT_MS
  while (!(await findUserById(database.db, userId))) {
    if (Date.now() > deadline) throw new Error('the projector did not reach the seeded people in time')
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** `count` people with TOTP on and a sign-in waiting on each, on the Tessera at `baseUrl`. */
export const seedTesseraSecondSteps = async (
  baseUrl: string,
  databaseUrl: string,
  secret: string,
  count: number,
  email: string,
): Promise<SeededSecondSteps> => {
  const cwd = await mkdtemp(join(tmpdir(), 'tessera-totp-seed-'))
  const { config, database, store } = await openStore(databaseUrl, secret, cwd)
  try {
    const template = await templateSignIn(baseUrl, store, email)
    const started = Date.now()
    const pending = await appendCopies(store, segmentsOf(template.events), count)
    const people = pending.map(({ copy, token }) => {
      const userId = vary(template.userId, copy)
      const cookie = `better-auth.two_factor=${encodeURIComponent(signCookieValue(`${userId}!${token}`, config.secret))}`
      return { userId, cookie }
    })
    const appendedIn = (Date.now() - started) / 1000
    await waitForReadModel(database, people.at(-1)?.userId ?? template.userId)
    console.log(
      `  wrote ${count} people with TOTP on and a pending sign-in in ${appendedIn.toFixed(1)} s ` +
        `(${template.events.length} events each); read models ready after ${((Date.now() - started) / 1000).toFixed(1)} s`,
    )
    return { key: template.key, lastStep: template.step, people }
  } finally {
    await store.close()
    await database.close()
    await rm(cwd, { recursive: true, force: true })
  }
}
