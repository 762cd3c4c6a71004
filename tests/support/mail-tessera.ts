/// The set-up the mailed sign-in tests share (magic links, email codes): one real SMTP sink for the
/// file, a fresh Tessera per test mailing to it under a test clock, the sink emptied and the clock
/// put back before each test, and the Tessera closed after it.

import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { type SmtpSink, startSmtpSink } from './smtp-sink.js'
import { startTessera, type TestTessera } from './tessera.js'

const START_OF_TEST = Date.parse('2026-11-01T10:00:00Z')

export type MailTessera = {
  readonly sink: SmtpSink
  readonly tessera: TestTessera
  /** Starts this test's Tessera with a config file's `features` and extra environment. */
  start(features?: object, env?: Record<string, string>): Promise<void>
  /** Moves the test clock on. */
  advance(milliseconds: number): void
}

/** Registers the hooks; call once at the top of a test file. */
export const mailTessera = (): MailTessera => {
  let sink: SmtpSink | null = null
  let tessera: TestTessera | null = null
  let now = START_OF_TEST
  beforeAll(async () => {
    sink = await startSmtpSink()
  })
  afterAll(() => sink?.close())
  beforeEach(() => {
    sink?.clear()
    now = START_OF_TEST
  })
  afterEach(() => tessera?.cleanup())
  const started = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`${what} is not started`)
    return value
  }
  return {
    get sink() {
      return started(sink, 'the SMTP sink')
    },
    get tessera() {
      return started(tessera, 'Tessera')
    },
    async start(features = {}, env = {}) {
      tessera = await startTessera({
        env: { SMTP_URL: started(sink, 'the SMTP sink').url, BASE_URL: 'http://tessera.test', ...env },
        features,
        clock: () => new Date(now),
      })
    },
    advance(milliseconds) {
      now += milliseconds
    },
  }
}
