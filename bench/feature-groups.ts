/// The scenario groups of issues 33 to 36, each with a name BENCH_ONLY can give (`factors`,
/// `passkey`, `oauth`, `scim`, `webhooks`), all run with the feature plugins on both servers
/// (bench/features-config.ts) and each needing only a handful of the seeded users.

import { BOTH, group, nothingToSeed, type ScenarioGroup, TESSERA_ONLY } from './groups.js'
import { oauthScenarios, seedOAuth, UNSEEDED_OAUTH } from './oauth.js'
import { passkeyScenarios } from './passkey.js'
import { SCIM_USERS_DEFAULT, type ScimDirectory, scimScenarios, seedScimDirectory } from './scim.js'
import { seedTotpUsers, TOTP_USERS_DEFAULT, type TotpUser, twoFactorScenarios } from './two-factor.js'
import { seedWebhooks, unseededWebhooks, WEBHOOK_USERS, webhookScenarios } from './webhooks.js'

const count = (name: string, fallback: number): number => {
  const raw = process.env[name]?.trim()
  const value = raw ? Number(raw) : fallback
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number >= 1 (got "${raw}")`)
  return value
}

export const featureGroups: readonly ScenarioGroup[] = [
  group({
    group: 'factors',
    usersNeeded: 1,
    needsFeatures: true,
    runsOn: BOTH,
    unseeded: [] as TotpUser[],
    seed: ({ baseUrl, email }) =>
      seedTotpUsers(baseUrl, count('BENCH_TOTP_USERS', TOTP_USERS_DEFAULT), (n) => email('totp', n)),
    scenarios: (users, { timing }) => twoFactorScenarios(users, timing),
  }),
  group({
    group: 'passkey',
    usersNeeded: 1,
    needsFeatures: true,
    runsOn: BOTH,
    unseeded: undefined,
    seed: nothingToSeed,
    scenarios: (_, { timing }) => passkeyScenarios(timing),
  }),
  group({
    group: 'scim',
    usersNeeded: 1,
    needsFeatures: true,
    runsOn: BOTH,
    unseeded: { userNames: [], newUserName: String } as ScimDirectory,
    seed: (target) => seedScimDirectory(target, count('BENCH_SCIM_USERS', SCIM_USERS_DEFAULT)),
    scenarios: (directory, { timing }) => scimScenarios(directory, timing),
  }),
  group({
    group: 'oauth',
    usersNeeded: 1,
    needsFeatures: true,
    runsOn: BOTH,
    unseeded: UNSEEDED_OAUTH,
    seed: seedOAuth,
    scenarios: (setup, { timing }) => oauthScenarios(setup, timing),
  }),
  // better-auth 1.7.5 has no webhooks.
  group({
    group: 'webhooks',
    usersNeeded: WEBHOOK_USERS,
    needsFeatures: true,
    runsOn: TESSERA_ONLY,
    unseeded: unseededWebhooks(),
    seed: seedWebhooks,
    scenarios: (setup, { timing }) => webhookScenarios(setup, timing),
  }),
]
