/// The operational table of started social sign-ins and links (projections/accounts/oauth-states.ts),
/// as a port on the command context (`CommandContext.lookups.oauthStates`): the flows save a record
/// by the state's hash, read it, and take it once (delete as read).

import type { OAuthStateTable } from '../../projections/accounts/oauth-states.js'

export type OAuthStateRecord = OAuthStateTable

export type OAuthStateStore = {
  save(record: OAuthStateRecord): Promise<void>
  /** The record, left in place; null when there is none. */
  find(stateHash: string): Promise<OAuthStateRecord | null>
  /** Deletes and returns the record; null when there is none or another request took it first. */
  take(stateHash: string): Promise<OAuthStateRecord | null>
  /** Removes records nobody came back for. */
  forgetExpired(now: Date): Promise<void>
}
