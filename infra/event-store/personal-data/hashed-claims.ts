/// Unique-claim values at rest are keyed hashes, not the values: the claims table must not keep a
/// deleted user's email in the clear. Equal values still collide, so uniqueness holds, and the key
/// stops anyone with the table from confirming a guessed address offline.
///
/// The key is not AUTH_SECRET itself but a claim key of its own, kept wrapped under AUTH_SECRET in
/// the keyring's table: rotating AUTH_SECRET re-wraps it and leaves every stored hash as it was, so
/// an address claimed before a rotation still refuses a second account after it (and after the old
/// secret is gone). A store whose claims predate the claim key (hashed under AUTH_SECRET directly)
/// adopts the secret in force at its first start on this version as its claim key, which keeps
/// those hashes valid too.

import { randomBytes } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import { hmacSha256, type Secret } from '../../crypto/hmac.js'
import type { UniqueClaim } from '../event-store.js'

export const CLAIM_KEY_SUBJECT = 'tessera:unique-claims'

// biome-ignore lint/suspicious/noExplicitAny: reads the claims table of any schema
type AnyDb = Kysely<any>

/** What the claim key needs of the keyring (keyring.ts), named here so the two modules form no circle. */
type ClaimKeySource = {
  existingKey(subject: string): Promise<Buffer | null>
  reservedKey(subject: `tessera:${string}`, create: () => Promise<Buffer>): Promise<Buffer>
}

/** HMAC-SHA256 (hex) of `scope:value`; the prefix keeps these apart from every other use of the key. */
export const hashClaimValue = (key: Secret, scope: string, value: string): string =>
  hmacSha256(key, `tessera:unique-claim:${scope}:${value}`).toString('hex')

export const hashClaims = (key: Secret, claims: readonly UniqueClaim[]): UniqueClaim[] =>
  claims.map((claim) => ({ ...claim, value: hashClaimValue(key, claim.scope, claim.value) }))

/**
 * The store's claim key: read from the keyring, or made on first use. Claims already in the table
 * without a claim key were hashed under AUTH_SECRET itself (before claim keys existed), and
 * `currentSecret` (still AUTH_SECRET at that first start) becomes the key that keeps them valid.
 */
export const claimKeyOf = (db: AnyDb, keyring: ClaimKeySource, currentSecret: Secret): Promise<Buffer> =>
  keyring.reservedKey(CLAIM_KEY_SUBJECT, async () =>
    (await holdsClaims(db)) ? Buffer.from(currentSecret) : randomBytes(32),
  )

/**
 * At start: opens the claim key (so a secret that cannot open it stops the start, not a sign-up),
 * or adopts the secret for claims made before claim keys existed. A store without claims gets its
 * key at its first claim, so a freshly migrated store stays empty (`tessera import` needs that).
 */
export const prepareClaimKey = async (
  db: AnyDb,
  keyring: ClaimKeySource,
  currentSecret: Secret,
): Promise<void> => {
  const existing = await keyring.existingKey(CLAIM_KEY_SUBJECT)
  if (!existing && (await holdsClaims(db))) await claimKeyOf(db, keyring, currentSecret)
}

const holdsClaims = async (db: AnyDb): Promise<boolean> => {
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from tessera_unique_claims) as found`.execute(db)
  return rows[0]?.found === true
}
