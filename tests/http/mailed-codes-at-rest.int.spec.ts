/// Short codes mailed to a person (email one-time codes, two-factor mailed codes) at rest and across
/// a rotation of AUTH_SECRET, on one PostgreSQL database kept while Tessera is stopped and started
/// again with other secrets: no stored row holds the code or its bare SHA-256 (six digits are a
/// million guesses, reversed in a second), a code mailed under the old secret still signs in once
/// the new one is current with the old one listed as previous, and a wrong code is refused.

import { type Kysely, sql } from 'kysely'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTessera, type Tessera } from '../../app/server/tessera.js'
import { loadConfig } from '../../infra/config/config.js'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import { type Browser, browserFor } from '../support/browser.js'
import { freshPostgres, type PostgresDatabase } from '../support/databases.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { type TestTessera, testClient } from '../support/tessera.js'
import { enrolled, halfSignedIn } from '../support/two-factor.js'

const SECRET_A = 'secret-a-before-the-rotation-0123456789abcdef'
const SECRET_B = 'secret-b-after-the-rotation-0123456789abcdef'

// biome-ignore lint/suspicious/noExplicitAny: the test reads the store's own table
type AnyDb = Kysely<any>

let sink: SmtpSink
let postgres: PostgresDatabase
let running: Tessera | null = null
// The browsers talk to whichever Tessera runs now, and keep their cookies across restarts.
const target = { api: null as unknown as TestTessera['api'] } as TestTessera

const start = async (env: Record<string, string>): Promise<Tessera> => {
  await running?.close()
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: postgres.url,
    SMTP_URL: sink.url,
    BASE_URL: 'http://tessera.test',
    ...env,
  })
  running = await createTessera({ config, logger: pino({ level: 'silent' }) })
  Object.assign(target, running, { api: testClient(running) })
  return running
}

beforeAll(async () => {
  sink = await startSmtpSink()
  postgres = await freshPostgres()
})
afterAll(async () => {
  await running?.close()
  await postgres.close()
  await sink.close()
})

const mailedCode = async (address: string, pattern: RegExp): Promise<string> => {
  const mail = await sink.waitForMail((m) => m.to.includes(address) && pattern.test(m.text), 60_000)
  sink.clear()
  const code = pattern.exec(mail.text)?.[1]
  if (!code) throw new Error(`no code in ${mail.text}`)
  return code
}
const wrong = (code: string) => (code === '000000' ? '111111' : '000000')

/** Every row of the event store, as text: what a leaked database shows. */
const storedRows = async (): Promise<string> => {
  const rows = await sql<{ row: string }>`select t::text as row from tessera_events t`.execute(
    running?.database.db as AnyDb,
  )
  return rows.rows.map((r) => r.row).join('\n')
}

describe('mailed codes at rest and across a rotation of AUTH_SECRET', { timeout: 300_000 }, () => {
  let signInCode = ''
  let twoFactorCode = ''
  let halfway: Browser

  it('under secret A, a sign-in code and a two-factor code are mailed and kept only keyed', async () => {
    await start({ AUTH_SECRET: SECRET_A })
    const nia = browserFor(target)
    await nia.post('/email-otp/send-verification-otp', { email: 'nia@example.com', type: 'sign-in' })
    signInCode = await mailedCode('nia@example.com', /Your code is (\d{6})/)

    await enrolled(target, 'ada@example.com', new Date())
    halfway = (await halfSignedIn(target, 'ada@example.com')).device
    expect((await halfway.post('/two-factor/send-otp')).json).toEqual({ status: true })
    twoFactorCode = await mailedCode('ada@example.com', /code is (\d{6})/)

    const rows = await storedRows()
    expect(rows).toContain('email-otp.code-issued')
    expect(rows).toContain('two-factor.code-mailed')
    for (const code of [signInCode, twoFactorCode]) {
      expect(rows).not.toContain(`"${code}"`)
      expect(rows).not.toContain(sha256Hex(code))
    }
  })

  it('after the rotation (B current, A previous), a wrong code is refused and the codes from A sign in', async () => {
    await start({ AUTH_SECRET: SECRET_B, AUTH_SECRET_PREVIOUS: SECRET_A })
    const nia = browserFor(target)
    const refused = await nia.post('/sign-in/email-otp', { email: 'nia@example.com', otp: wrong(signInCode) })
    expect(refused.json).toEqual({ code: 'INVALID_OTP', message: 'Invalid OTP' })
    const signedIn = await nia.post('/sign-in/email-otp', { email: 'nia@example.com', otp: signInCode })
    expect(signedIn.status).toBe(200)
    expect((await nia.session())?.user).toMatchObject({ email: 'nia@example.com' })

    const wrongFactor = await halfway.post('/two-factor/verify-otp', { code: wrong(twoFactorCode) })
    expect(wrongFactor.json).toMatchObject({ code: 'INVALID_CODE' })
    const passed = await halfway.post('/two-factor/verify-otp', { code: twoFactorCode })
    expect(passed.json).toMatchObject({ token: expect.any(String), user: { email: 'ada@example.com' } })
  })

  it('a code issued under B is kept under B, and with A no longer accepted it still signs in', async () => {
    const nia = browserFor(target)
    await nia.post('/email-otp/send-verification-otp', { email: 'nia@example.com', type: 'sign-in' })
    const code = await mailedCode('nia@example.com', /Your code is (\d{6})/)
    expect(await storedRows()).not.toContain(sha256Hex(code))
    await start({ AUTH_SECRET: SECRET_B })
    expect((await nia.post('/sign-in/email-otp', { email: 'nia@example.com', otp: code })).status).toBe(200)
  })
})
