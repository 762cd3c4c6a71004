/// Issue 33's remaining figures, beside better-auth with the same plugins: a whole passkey sign-in
/// (`passkey-sign-in`, bench/factor-figures-passkey.ts) and the second step of a TOTP sign-in alone
/// (`verify-totp`, bench/factor-figures-totp.ts; PostgreSQL only).

import {
  PASSKEY_USERS,
  type PasskeySetup,
  passkeySignInScenarios,
  seedPasskeys,
} from './factor-figures-passkey.js'
import {
  afterStep,
  NO_SECOND_STEPS,
  type SeededSecondSteps,
  TOTP_ALONE_USERS_DEFAULT,
  UNSEEDED_SECOND_STEPS,
  verifyTotpAloneScenarios,
} from './factor-figures-totp.js'
import { seedBetterAuthSecondSteps } from './factor-figures-totp-better-auth.js'
import { seedTesseraSecondSteps } from './factor-figures-totp-tessera.js'
import { BOTH, group, type ScenarioGroup, type SeedTarget } from './groups.js'
import { secretOf } from './server-secrets.js'

const totpAloneUsers = (): number => {
  const raw = process.env.BENCH_TOTP_ALONE_USERS?.trim()
  const value = raw ? Number(raw) : TOTP_ALONE_USERS_DEFAULT
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`BENCH_TOTP_ALONE_USERS must be a whole number >= 1 (got "${raw}")`)
  return value
}

const seedSecondSteps = async (target: SeedTarget): Promise<SeededSecondSteps> => {
  const { baseUrl, databaseUrl, email } = target
  if (!databaseUrl) return NO_SECOND_STEPS
  const { kind, secret } = secretOf(baseUrl)
  const count = totpAloneUsers()
  const seeded =
    kind === 'Tessera'
      ? await seedTesseraSecondSteps(baseUrl, databaseUrl, secret, count, email('totp-alone', 0))
      : await seedBetterAuthSecondSteps(baseUrl, databaseUrl, secret, count, (n) => email('totp-alone', n))
  target.notes.push(`verify-totp alone: ${count} people with a pending second step, written straight in`)
  await afterStep(seeded.lastStep)
  return seeded
}

export const factorFigureGroups: readonly ScenarioGroup[] = [
  group({
    group: 'passkey-sign-in',
    usersNeeded: PASSKEY_USERS,
    needsFeatures: true,
    runsOn: BOTH,
    unseeded: { rp: { rpId: '', origin: '' }, users: [] } as PasskeySetup,
    seed: ({ baseUrl, users }) => seedPasskeys(baseUrl, users),
    scenarios: (setup, { timing }) => passkeySignInScenarios(setup, timing),
  }),
  group({
    group: 'verify-totp',
    usersNeeded: 1,
    needsFeatures: true,
    runsOn: BOTH,
    unseeded: UNSEEDED_SECOND_STEPS,
    seed: seedSecondSteps,
    scenarios: (seeded, { timing }) => verifyTotpAloneScenarios(seeded, timing),
  }),
]
