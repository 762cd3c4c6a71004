/// better-auth's side of `verify-totp alone` (bench/factor-figures-totp.ts): people with TOTP on and
/// a sign-in waiting on its second step, written through better-auth's own adapter in the harness
/// (a better-auth instance on the same PostgreSQL database, with the server's secret and the same
/// plugin), row for row what its routes write: the user (`twoFactorEnabled`), the `twoFactor` row
/// (its secret sealed with `symmetricEncrypt` under the secret, `verified`), and what its password
/// sign-in writes for the second step (the `2fa-…` verification naming the user, its
/// `2fa-attempts-…` counter) with the cookie it would set, signed as better-call signs cookies.

import { randomBytes } from 'node:crypto'
import { betterAuth } from 'better-auth'
import { symmetricEncrypt } from 'better-auth/crypto'
import { twoFactor } from 'better-auth/plugins/two-factor'
import pg from 'pg'
import { signCookieValue } from '../infra/crypto/signed-cookie.js'
import { betterAuthDatabaseUrl } from './better-auth.js'
import type { SecondStepPerson, SeededSecondSteps } from './factor-figures-totp.js'
import { BENCH_TOTP_ISSUER } from './features-config.js'
import { inParallel } from './parallel.js'
import { timeStep } from './totp.js'

const CONCURRENCY = 16
const CHALLENGE_LIFETIME_MS = 3_600_000

export const seedBetterAuthSecondSteps = async (
  baseUrl: string,
  postgresUrl: string,
  secret: string,
  count: number,
  email: (n: number) => string,
): Promise<SeededSecondSteps> => {
  const pool = new pg.Pool({ connectionString: betterAuthDatabaseUrl(postgresUrl), max: CONCURRENCY })
  try {
    const auth = betterAuth({
      database: pool,
      secret,
      baseURL: baseUrl,
      emailAndPassword: { enabled: true },
      plugins: [twoFactor({ issuer: BENCH_TOTP_ISSUER })],
      telemetry: { enabled: false },
      logger: { level: 'warn' },
    })
    const context = await auth.$context
    // better-auth keys its TOTP with the secret string's bytes (createOTP's HMAC key).
    const totpSecret = randomBytes(16).toString('hex')
    const sealedSecret = await symmetricEncrypt({ key: secret, data: totpSecret })
    const sealedBackupCodes = await symmetricEncrypt({ key: secret, data: '[]' })
    const expiresAt = new Date(Date.now() + CHALLENGE_LIFETIME_MS)
    const started = Date.now()
    const person = async (n: number): Promise<SecondStepPerson> => {
      const user = await context.internalAdapter.createUser(
        {
          name: 'Bench User',
          email: email(n),
          emailVerified: false,
          twoFactorEnabled: true,
        },
        // As its admin API would create them: no password, none needed for the second step.
        { method: 'admin' },
      )
      await context.adapter.create({
        model: 'twoFactor',
        data: { secret: sealedSecret, backupCodes: sealedBackupCodes, userId: user.id, verified: true },
      })
      const identifier = `2fa-${randomBytes(15).toString('base64url')}`
      await context.internalAdapter.createVerificationValue({ value: user.id, identifier, expiresAt })
      await context.internalAdapter.createVerificationValue({
        value: '0',
        identifier: `2fa-attempts-${identifier}`,
        expiresAt,
      })
      const cookie = `better-auth.two_factor=${encodeURIComponent(signCookieValue(identifier, secret))}`
      return { userId: user.id, cookie }
    }
    const numbers = Array.from({ length: count }, (_, n) => n)
    const people = await inParallel(numbers, CONCURRENCY, person)
    console.log(
      `  wrote ${count} people with TOTP on and a pending sign-in in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    )
    return { key: Buffer.from(totpSecret, 'utf8'), lastStep: timeStep(Date.now()) - 2, people }
  } finally {
    await pool.end()
  }
}
