import { useOutletContext } from 'react-router'
import type { SignedIn } from '../session/session.api.js'
import type { FullOrganization, Member } from './organizations.api.js'

/** What the reader's role grants, as the server decides it (viewer.api.ts reads it). */
export type Viewer = {
  role: string
  /** resource → actions the role grants, e.g. `{ team: ['create', 'update'], activity: ['read'] }`. */
  permissions: Record<string, string[]>
  features: { teams: boolean; customRoles: boolean }
}

/// What the organization's pages share: the organization as loaded, and who the reader is in it.
/// It extends the signed-in person, so that `useSignedIn` keeps working below the layout.
export type OrganizationContext = SignedIn & {
  organization: FullOrganization
  /** The reader's membership; null only in the moment after they left or were removed. */
  me: Member | null
  /** What the server says the reader's role grants; null when it did not answer (see `may`). */
  viewer: Viewer | null
}

export const useOrganization = (): OrganizationContext => useOutletContext<OrganizationContext>()

/** The session's active organization (better-auth adds it to the session). */
export const activeOrganizationIdOf = (signedIn: SignedIn): string | null => {
  const value: unknown = Reflect.get(signedIn.session, 'activeOrganizationId')
  return typeof value === 'string' && value !== '' ? value : null
}

/** The session's active team (better-auth adds it with teams on). */
export const activeTeamIdOf = (signedIn: SignedIn): string | null => {
  const value: unknown = Reflect.get(signedIn.session, 'activeTeamId')
  return typeof value === 'string' && value !== '' ? value : null
}
