/// The command side's read-model ports (http/ports/command-lookups.ts), implemented over the
/// projections' repositories and bound to the read-model database once, here in the composition
/// root, so that no use case names a table or a repository.

import type { Kysely } from 'kysely'
import type { CommandLookups } from '../../http/ports/command-lookups.js'
import {
  findOAuthState,
  forgetExpiredOAuthStates,
  saveOAuthState,
  takeOAuthState,
} from '../../projections/accounts/oauth-states.js'
import * as apiKeys from '../../projections/api-keys/api-keys.repository.js'
import type { Database } from '../../projections/database.js'
import { listSigningKeys } from '../../projections/jwks/jwks.repository.js'
import * as oauthClients from '../../projections/oauth-provider/oauth-provider.repository.js'
import { findOneTimeToken } from '../../projections/one-time-tokens/one-time-tokens.repository.js'
import * as organizations from '../../projections/organizations/organizations.repository.js'
import { saveChallenge, takeChallenge } from '../../projections/passkeys/passkey-challenges.js'
import {
  findPasskeyByCredentialId,
  findPasskeyById,
  listPasskeysOfUser,
} from '../../projections/passkeys/passkeys.repository.js'
import { findMessageCursor } from '../../projections/reactors/webhooks/webhook-deliveries.table.js'
import { isDeactivated } from '../../projections/scim/scim-inline.js'
import {
  findSessionById,
  findSessionByTokenHash,
  findSessionIdByTokenHash,
  listSessionsOfUser,
} from '../../projections/sessions/sessions.repository.js'
import * as ssoProviders from '../../projections/sso/sso-providers.repository.js'
import { coalescedUserStandings } from '../../projections/users/user-standing.js'
import { registeredUserRow } from '../../projections/users/users.projection.js'
import {
  findBanOf,
  findCredentialByEmail,
  findCredentialByUsername,
  findPasswordHash,
  findUserByEmail,
  findUserById,
} from '../../projections/users/users.repository.js'
import { findEndpoint } from '../../projections/webhooks/webhook-endpoints.repository.js'

/** Each method is the repository function of its name, with the database bound. */
const organizationLookupOver = (db: Kysely<Database>): CommandLookups['organizations'] => ({
  findOrganization: (...args) => organizations.findOrganization(db, ...args),
  findOrganizationBySlug: (...args) => organizations.findOrganizationBySlug(db, ...args),
  listOrganizationsOfUser: (...args) => organizations.listOrganizationsOfUser(db, ...args),
  countOrganizationsOfUser: (...args) => organizations.countOrganizationsOfUser(db, ...args),
  findMember: (...args) => organizations.findMember(db, ...args),
  findMemberById: (...args) => organizations.findMemberById(db, ...args),
  findMemberWithUser: (...args) => organizations.findMemberWithUser(db, ...args),
  findMemberByEmail: (...args) => organizations.findMemberByEmail(db, ...args),
  listMembers: (...args) => organizations.listMembers(db, ...args),
  listFirstMembers: (...args) => organizations.listFirstMembers(db, ...args),
  listInvitations: (...args) => organizations.listInvitations(db, ...args),
  findInvitation: (...args) => organizations.findInvitation(db, ...args),
  listTeamsWithMemberCounts: (...args) => organizations.listTeamsWithMemberCounts(db, ...args),
  findTeam: (...args) => organizations.findTeam(db, ...args),
  findTeamMember: (...args) => organizations.findTeamMember(db, ...args),
  listRoles: (...args) => organizations.listRoles(db, ...args),
  customRolesOf: (...args) => organizations.customRolesOf(db, ...args),
})

const ssoProviderLookupOver = (db: Kysely<Database>): CommandLookups['ssoProviders'] => ({
  findSsoProvider: (...args) => ssoProviders.findSsoProvider(db, ...args),
  findSsoProviderOfOrganization: (...args) => ssoProviders.findSsoProviderOfOrganization(db, ...args),
  findSsoProvidersForDomain: (...args) => ssoProviders.findSsoProvidersForDomain(db, ...args),
  listSsoProvidersOfOrganizations: (...args) => ssoProviders.listSsoProvidersOfOrganizations(db, ...args),
  countSsoProvidersOfUser: (...args) => ssoProviders.countSsoProvidersOfUser(db, ...args),
})

const apiKeyRecordsOver = (db: Kysely<Database>): CommandLookups['apiKeys'] => ({
  byId: (id) => apiKeys.findApiKeyById(db, id),
  verifiableByHash: (keyHash) => apiKeys.findVerifiableKey(db, keyHash),
  consumeUse: (limits, now) => apiKeys.consumeUse(db, limits, now),
  usageOf: (keyId) => apiKeys.findUsage(db, keyId),
  takeUsageSummary: (usage, now, everyMs) => apiKeys.takeUsageSummary(db, usage, now, everyMs),
  addBufferedUses: (uses) => apiKeys.addBufferedUses(db, uses),
  takeUnrecordedUses: (keyId) => apiKeys.takeUnrecordedUses(db, keyId),
  giveBackUses: (keyId, uses) => apiKeys.giveBackUses(db, keyId, uses),
  sweepRevokedUsage: (before, limit) => apiKeys.sweepRevokedUsage(db, before, limit),
})

export const commandLookupsOver = (db: Kysely<Database>): CommandLookups => {
  const standingOf = coalescedUserStandings(db)
  return {
    users: {
      byId: (userId) => findUserById(db, userId),
      byEmail: (email) => findUserByEmail(db, email),
      credentialByEmail: (email) => findCredentialByEmail(db, email),
      credentialByUsername: (username) => findCredentialByUsername(db, username),
      banOf: (userId) => findBanOf(db, userId),
      isDeactivated: (userId) => isDeactivated(db, userId),
      standingOf,
      passwordHashOf: (userId) => findPasswordHash(db, userId),
      registeredRow: registeredUserRow,
    },
    sessions: {
      byId: (sessionId) => findSessionById(db, sessionId),
      byTokenHash: (tokenHash) => findSessionByTokenHash(db, tokenHash),
      ofUser: (userId) => listSessionsOfUser(db, userId),
      idByTokenHash: (tokenHash) => findSessionIdByTokenHash(db, tokenHash),
    },
    oneTimeTokens: { find: (tokenHash, purpose) => findOneTimeToken(db, tokenHash, purpose) },
    oauthStates: {
      save: (record) => saveOAuthState(db, record),
      find: (stateHash) => findOAuthState(db, stateHash),
      take: (stateHash) => takeOAuthState(db, stateHash),
      forgetExpired: (now) => forgetExpiredOAuthStates(db, now),
    },
    apiKeys: apiKeyRecordsOver(db),
    organizations: organizationLookupOver(db),
    signingKeys: { all: () => listSigningKeys(db) },
    ssoProviders: ssoProviderLookupOver(db),
    webhooks: {
      findEndpoint: (id) => findEndpoint(db, id),
      findMessageCursor: (endpointId, eventId) => findMessageCursor(db, endpointId, eventId),
    },
    passkeys: {
      byId: (passkeyId) => findPasskeyById(db, passkeyId),
      byCredentialId: (credentialId) => findPasskeyByCredentialId(db, credentialId),
      ofUser: (userId) => listPasskeysOfUser(db, userId),
      saveChallenge: (challenge, now) => saveChallenge(db, challenge, now),
      takeChallenge: (tokenHash) => takeChallenge(db, tokenHash),
    },
    oauthClients: {
      findClient: (clientId) => oauthClients.findClient(db, clientId),
      listClients: (...args) => oauthClients.listClients(db, ...args),
      findConsent: (...args) => oauthClients.findConsent(db, ...args),
      listConsents: (userId) => oauthClients.listConsents(db, userId),
      listLiveGrants: (userId, clientId) => oauthClients.listLiveGrants(db, userId, clientId),
      listLiveGrantsOfClient: (clientId) => oauthClients.listLiveGrantsOfClient(db, clientId),
    },
  }
}
