/// Used SAML assertion ids: an OPERATIONAL table, not a read model and not in the log (a used id
/// is a guard, nobody's history, and the log would keep it forever). One row per accepted
/// assertion, keyed by `<providerId>:<assertion ID>`, kept until the assertion's own window has
/// closed, after which the window alone refuses it. The primary key makes the claim atomic: of two
/// instances posting the same assertion at once, exactly one inserts the row. The table lives in
/// the shared database, so the guard holds across instances and restarts.

import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their table
type AnyDb = Kysely<any>

export type SamlAssertionClaimTable = { claim_id: string; expires_at: Date }

export const samlAssertionClaimsMigration = {
  async up(db: AnyDb): Promise<void> {
    await db.schema
      .createTable('tessera_saml_assertion_claims')
      .addColumn('claim_id', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .execute()
  },
}

type Tables = { tessera_saml_assertion_claims: SamlAssertionClaimTable }
const tables = (db: AnyDb) => db as Kysely<Tables>

/** True when this call took the id; false when it was taken before (a replay). Forgets the
 *  claims whose window has closed, so the table holds minutes of sign-ins. */
export const claimSamlAssertion = async (
  db: AnyDb,
  claimId: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> => {
  await tables(db).deleteFrom('tessera_saml_assertion_claims').where('expires_at', '<=', now).execute()
  const taken = await tables(db)
    .insertInto('tessera_saml_assertion_claims')
    .values({ claim_id: claimId, expires_at: expiresAt })
    .onConflict((oc) => oc.column('claim_id').doNothing())
    .returning('claim_id')
    .executeTakeFirst()
  return taken !== undefined
}
