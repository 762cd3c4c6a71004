/// The feature plugins both servers run with when BENCH_ONLY picks a scenario that needs them
/// (two-factor, passkeys, the OAuth provider, SCIM, webhooks): Tessera's `tessera.config.json`
/// and the environment that turns the same plugins on in bench/better-auth-server.ts. Without
/// such a scenario both servers run as before, so the shared figures stay comparable with earlier
/// runs.

import { randomBytes } from 'node:crypto'

/** The SCIM connection's bearer token, new for every run, on both servers. */
export const BENCH_SCIM_TOKEN = randomBytes(32).toString('base64url')
export const BENCH_SCIM_CONNECTION = 'bench'
/**
 * The organization the SCIM connection provisions into, by slug (Tessera resolves it on each
 * request; bench/scim.ts creates it); better-auth takes it as an opaque provisioning domain.
 * Run-unique, as emails are, so a reused PostgreSQL database never clashes.
 */
export const BENCH_SCIM_ORGANIZATION = `bench-scim-${randomBytes(4).toString('hex')}`
export const BENCH_TOTP_ISSUER = 'Tessera bench'

/** Tessera's options for the feature scenarios (the file's own names). */
export const tesseraFeatureConfig = (): Record<string, unknown> => ({
  twoFactor: { issuer: BENCH_TOTP_ISSUER },
  // Present, so on, as better-auth's plugin is once added; the client_credentials scenario's
  // machine client asks for a scope about no person, offered on both servers.
  oauthProvider: { scopes: ['bench:read'] },
  scim: {
    connections: [
      {
        id: BENCH_SCIM_CONNECTION,
        provisioningDomainId: BENCH_SCIM_ORGANIZATION,
        credentials: [{ id: BENCH_SCIM_CONNECTION, token: BENCH_SCIM_TOKEN }],
      },
    ],
  },
  // Tessera provisions SCIM people into the organization (better-auth's plugin, without its
  // organization plugin here, adds them to none): room for BENCH_SCIM_USERS past the default 100.
  organization: { membershipLimit: 100_000 },
  // The webhook receiver listens on loopback (as the tests allow it).
  webhooks: { allowAddresses: ['127.0.0.0/8'] },
})

/** Turns the same plugins on in better-auth's bench server. */
export const betterAuthFeatureEnv = (): NodeJS.ProcessEnv => ({
  BENCH_FEATURES: '1',
  BENCH_SCIM_TOKEN,
  BENCH_SCIM_CONNECTION,
  BENCH_SCIM_ORGANIZATION,
  BENCH_TOTP_ISSUER,
})

/**
 * The config file Tessera starts with: the feature options when wanted, then `BENCH_CONFIG`'s own
 * sections over them (a section given there replaces the same section here).
 */
export const tesseraConfigFile = (features: boolean, benchConfig: string | undefined): string | undefined => {
  const own = benchConfig?.trim() ? (JSON.parse(benchConfig) as Record<string, unknown>) : undefined
  if (!features) return benchConfig?.trim() ? benchConfig : undefined
  return JSON.stringify({ ...tesseraFeatureConfig(), ...own })
}
