/// Organization reads kept in memory: get-full-organization's answers per organization and members
/// limit (some five queries and a hundred member rows with their users each), has-permission's
/// memberships (command-api/organization/kept-members.ts), and, keyed by user, organization/list's
/// answers. Exact only beside a projector in `apply` mode: the read models change only through
/// applied events, and every applied event that could change an entry evicts it (an organization's
/// events that organization's entries, or everything where entries are keyed by user; a user's
/// events, which may rename, re-address or erase a member or an invitee, everything). While the
/// projector is not running, or after the read models were rewound under it (a replay), nothing is
/// served from here.

import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import { comparePositions, type GlobalPosition } from '../../infra/event-store/event-store.js'
import type { Projector } from '../../projections/runner/projector-types.js'

/** Members held across all answers (about 250 bytes each): a bound on the memory this may take. */
const MAX_MEMBERS_HELD = 20_000

/** Events that never change an organization, its members' users or its invitations. */
const IRRELEVANT_PREFIXES = ['session.', 'api-key.', 'signing-key.']
// A member's user shows as id, name, email and image: of a user's events only those that rename,
// re-address or erase them matter. The rest (passwords, links, verification, admin roles, bans)
// would otherwise empty every cache each time anybody resets a password.
const IRRELEVANT_TYPES = new Set([
  'user.sign-in-failed',
  'user.registered',
  'user.password-changed',
  'user.password-reset',
  'user.password-reset-requested',
  'user.password-set',
  'user.password-removed',
  'user.verification-email-requested',
  'user.email-verified',
  'user.email-change-requested',
  'user.token-discarded',
  'user.deletion-requested',
  'user.deletion-notice-requested',
  'user.deletion-notice-sent',
  'user.role-set',
  'user.banned',
  'user.ban-details-set',
  'user.unbanned',
])

export type KeptEntry<Answer> = {
  answer: Answer
  /** The members' user ids when the answer lists every member; null when the limit cut the list. */
  memberUserIds: ReadonlySet<string> | null
  /** How many members the answer holds (for the memory bound). */
  size: number
}

export type OrganizationCache<Answer> = {
  /** `variant`: what of the organization is kept (a members limit, a member). */
  get(organizationId: string, variant: Variant): KeptEntry<Answer> | undefined
  /** Changes whenever anything is evicted; take it before reading the database. */
  generation(): number
  /** Keeps an answer read while `generation` held; ignored if an eviction happened since. */
  set(organizationId: string, variant: Variant, value: KeptEntry<Answer>, generation: number): void
  evictFor(events: readonly Pick<RecordedEvent, 'type' | 'data'>[]): void
}

type Variant = number | string

export type CacheProjector = Pick<Projector, 'onApplied' | 'status' | 'position'>

const organizationIdOf = (data: object): string | null => {
  const { organizationId } = data as { organizationId?: unknown }
  return typeof organizationId === 'string' ? organizationId : null
}

/** `byUser`: entries are keyed by user, so an organization's event may change any of them. */
export type CacheKeys = 'byOrganization' | 'byUser'

export const createOrganizationCache = <Answer>(
  projector: CacheProjector,
  keys: CacheKeys = 'byOrganization',
): OrganizationCache<Answer> => {
  const byOrganization = new Map<string, Map<Variant, KeptEntry<Answer>>>()
  let held = 0
  let generation = 0
  let seen: GlobalPosition = projector.position()

  const evict = (organizationId: string) => {
    const entries = byOrganization.get(organizationId)
    if (!entries) return
    for (const entry of entries.values()) held -= entry.size
    byOrganization.delete(organizationId)
  }
  const clear = () => {
    byOrganization.clear()
    held = 0
  }

  const trusted = () => {
    const status = projector.status()
    if (status.mode !== 'apply' || status.state !== 'running') return false
    // A replay rewinds the checkpoint without events: what is held may no longer be in the read models.
    const at = projector.position()
    if (comparePositions(at, seen) < 0) {
      generation += 1
      clear()
    }
    seen = at
    return true
  }

  return {
    get: (organizationId, variant) =>
      trusted() ? byOrganization.get(organizationId)?.get(variant) : undefined,
    generation: () => generation,
    set(organizationId, variant, value, readAt) {
      // A read that raced with an eviction may hold what the event changed: do not keep it.
      if (readAt !== generation || !trusted() || value.size > MAX_MEMBERS_HELD) return
      const entries = byOrganization.get(organizationId) ?? new Map<Variant, KeptEntry<Answer>>()
      held -= entries.get(variant)?.size ?? 0
      entries.set(variant, value)
      byOrganization.set(organizationId, entries)
      held += value.size
      // The oldest organizations go first (a Map iterates in insertion order).
      for (const oldest of byOrganization.keys()) {
        if (held <= MAX_MEMBERS_HELD) break
        if (oldest !== organizationId) evict(oldest)
      }
    },
    evictFor(events) {
      generation += 1
      for (const event of events) {
        if (IRRELEVANT_TYPES.has(event.type) || IRRELEVANT_PREFIXES.some((p) => event.type.startsWith(p)))
          continue
        const organizationId =
          keys === 'byOrganization' && event.type.startsWith('organization.')
            ? organizationIdOf(event.data)
            : null
        if (organizationId) evict(organizationId)
        else clear()
      }
    },
  }
}

/** A cache that follows the projector's applied events until the app closes. */
export const subscribedOrganizationCache = <Answer>(
  projector: CacheProjector,
  keys: CacheKeys = 'byOrganization',
): { cache: OrganizationCache<Answer>; unsubscribe: () => void } => {
  const cache = createOrganizationCache<Answer>(projector, keys)
  const unsubscribe = projector.onApplied((events) => cache.evictFor(events))
  return { cache, unsubscribe }
}
