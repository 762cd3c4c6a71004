/// has-permission's membership lookup, kept in memory under get-full-organization's rules
/// (query-api/organization/organization-cache.ts): a member asking again about the same organization costs no query
/// until an event of that organization, or any user event, is applied. Only found members are kept:
/// a refusal always reads the read model.

import {
  type CacheProjector,
  subscribedOrganizationCache,
} from '../../http/organization/organization-cache.js'
import type { MemberRow, OrganizationLookup } from '../../http/ports/organization-lookup.js'

export type KeptMembers = {
  find(organizationId: string, userId: string): Promise<MemberRow | undefined>
  stop(): void
}

export const keptMembers = (
  findMember: OrganizationLookup['findMember'],
  projector: CacheProjector,
): KeptMembers => {
  const { cache, unsubscribe } = subscribedOrganizationCache<MemberRow>(projector)
  return {
    async find(organizationId, userId) {
      const variant = `member:${userId}`
      const kept = cache.get(organizationId, variant)
      if (kept) return kept.answer
      const generation = cache.generation()
      const member = await findMember(organizationId, userId)
      if (member)
        cache.set(organizationId, variant, { answer: member, memberUserIds: null, size: 1 }, generation)
      return member
    },
    stop: unsubscribe,
  }
}
