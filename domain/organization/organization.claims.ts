/// The organization stream's name and the unique claims its events take and release: slugs (one
/// slug, one organization) and membership seats.

import type { OrganizationEvent } from './organization.events.js'

export const organizationStream = (organizationId: string): string => `organization-${organizationId}`

/** The unique-claim scope of organization slugs (one slug, one organization). */
export const SLUG_SCOPE = 'organization.slug'

/**
 * The unique-claim scope of membership seats: each membership of a user (while an
 * `organizationLimit` is configured) claims one of the user's seats, `<userId>:<n>`, in the append
 * that adds it, and releases it in the append that ends it. A create may only take a seat below the
 * limit, so concurrent creates by one user cannot pass the limit: two that pick the same seat
 * conflict in the store, and the loser looks for another.
 */
export const MEMBERSHIP_SEAT_SCOPE = 'organization.membership-seat'
export const membershipSeatValue = (userId: string, seat: number): string => `${userId}:${seat}`
/**
 * The claims the events take and release: slugs (one slug, one organization) and membership seats
 * (see `MEMBERSHIP_SEAT_SCOPE`).
 */
export const organizationClaims = (events: readonly OrganizationEvent[]) =>
  events.flatMap((event) => {
    switch (event.type) {
      case 'organization.member-added':
      case 'organization.member-removed': {
        const { seat, userId, organizationId } = event.data
        if (seat === undefined) return []
        const op = event.type === 'organization.member-added' ? ('claim' as const) : ('release' as const)
        return [
          {
            op,
            scope: MEMBERSHIP_SEAT_SCOPE,
            value: membershipSeatValue(userId, seat),
            owner: organizationId,
          },
        ]
      }
      case 'organization.created':
        return [
          {
            op: 'claim' as const,
            scope: SLUG_SCOPE,
            value: event.data.slug,
            owner: event.data.organizationId,
          },
        ]
      case 'organization.updated':
        return event.data.slug === event.data.previousSlug
          ? []
          : [
              {
                op: 'release' as const,
                scope: SLUG_SCOPE,
                value: event.data.previousSlug,
                owner: event.data.organizationId,
              },
              {
                op: 'claim' as const,
                scope: SLUG_SCOPE,
                value: event.data.slug,
                owner: event.data.organizationId,
              },
            ]
      case 'organization.deleted':
        return [
          {
            op: 'release' as const,
            scope: SLUG_SCOPE,
            value: event.data.slug,
            owner: event.data.organizationId,
          },
        ]
      default:
        return []
    }
  })
