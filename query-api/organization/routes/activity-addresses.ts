/// The invited address on the organization feed's invitation entries, for those who may invite.
/// The log seals the address under the invitee's key and the feed's own rows never hold it
/// (projections/organizations/organization-activity.ts); it is read here from the invitations read
/// model, which forgets it with the person who holds it, so an erased invitee reads as "someone".

import type { Kysely } from 'kysely'
import type { Database } from '../../../projections/database.js'

type Entry = { type: string; details: Record<string, unknown> }

const invitationIdOf = (entry: Entry): string | null =>
  entry.type.startsWith('organization.invitation-') && typeof entry.details.invitationId === 'string'
    ? entry.details.invitationId
    : null

export const withInviteeAddresses = async <E extends Entry>(
  db: Kysely<Database>,
  organizationId: string,
  entries: E[],
): Promise<E[]> => {
  const ids = [...new Set(entries.map(invitationIdOf).filter((id): id is string => id !== null))]
  if (ids.length === 0) return entries
  const rows = await db
    .selectFrom('organization_invitations')
    .select(['id', 'email'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute()
  const addresses = new Map(rows.filter((row) => row.email !== '').map((row) => [row.id, row.email]))
  return entries.map((entry) => {
    const email = addresses.get(invitationIdOf(entry) ?? '')
    return email ? { ...entry, details: { ...entry.details, email } } : entry
  })
}
