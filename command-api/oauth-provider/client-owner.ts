/// Who stands behind a client, for the consent page (issue 35: "a consent page naming the client,
/// its owner"): the organization that owns it, the person who registered it, the operator (a backend with the server key), or
/// nobody vouched for (open dynamic registration). Tessera's own addition to `public-client`.

import type { Kysely } from 'kysely'
import type { Database } from '../../projections/database.js'
import type { StoredClient } from '../../projections/oauth-provider/oauth-provider.repository.js'

export type OwnerType = 'organization' | 'user' | 'operator' | 'dynamic'
export type ClientOwner = { owner_type: OwnerType; owner?: string }

export const ownerOf = async (db: Kysely<Database>, client: StoredClient): Promise<ClientOwner> => {
  if (client.organizationId) {
    const organization = await db
      .selectFrom('organizations')
      .select('name')
      .where('id', '=', client.organizationId)
      .executeTakeFirst()
    return organization
      ? { owner_type: 'organization', owner: organization.name }
      : { owner_type: 'organization' }
  }
  if (client.userId) {
    const user = await db
      .selectFrom('users')
      .select('name')
      .where('id', '=', client.userId)
      .executeTakeFirst()
    return user ? { owner_type: 'user', owner: user.name } : { owner_type: 'user' }
  }
  return { owner_type: client.source === 'dynamic' ? 'dynamic' : 'operator' }
}
