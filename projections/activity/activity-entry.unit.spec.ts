import { describe, expect, it } from 'vitest'
import type { ApiKeyEvent } from '../../domain/api-key/api-key.js'
import { knownEventTypes } from '../../domain/events.js'
import type { LinkedAccountEvent } from '../../domain/linked-accounts/linked-accounts.js'
import type { OrganizationEvent } from '../../domain/organization/organization.events.js'
import type { ScimConnectionEvent } from '../../domain/scim/scim-connection.js'
import type { ScimGroupEvent } from '../../domain/scim/scim-group.js'
import type { ScimUserEvent } from '../../domain/scim/scim-user.js'
import { SIGNED_OUT } from '../../domain/session/session.declarations.js'
import type { SessionEvent } from '../../domain/session/session.js'
import type { Actor, EventMetadata } from '../../domain/shared/metadata.js'
import type { SigningKeyEvent } from '../../domain/signing-key/signing-key.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import { type ActivityChange, type ActivitySource, activityChangeOf } from './activity-entry.js'

const USER = 'user-1'
const HASH = 'c0ffee-secret-hash'
const REQUEST_ID = 'request-id-secret'
const OWNER: Actor = { type: 'user', userId: USER }

type ExampleEvent =
  | UserEvent
  | SessionEvent
  | SigningKeyEvent
  | ApiKeyEvent
  | LinkedAccountEvent
  | OrganizationEvent
  | ScimUserEvent
  | ScimGroupEvent
  | ScimConnectionEvent

const metadata = (actor: Actor = OWNER, extra: Partial<EventMetadata> = {}): EventMetadata => ({
  actor,
  ip: '203.0.113.7',
  userAgent: 'Request UA',
  correlationId: 'correlation-secret',
  causationId: null,
  at: '2026-03-01T10:00:00.000Z',
  ...extra,
})

const source = (event: ExampleEvent, meta: EventMetadata = metadata()): ActivitySource => ({
  id: `event-${event.type}`,
  ...event,
  metadata: meta,
})

/**
 * The second factors', passwordless sign-in's, the OpenID provider's and the webhooks' events, each
 * given one shape that holds every field they use, secrets (hashes, sealed secrets) set to HASH, so
 * that an activity entry that copied one would fail the leak check below.
 */
const LATER_FEATURE_DATA = {
  userId: USER,
  ownerId: USER,
  email: 'a@x.test',
  name: 'My key',
  method: 'totp',
  passkeyId: 'pk1',
  credentialId: HASH,
  secret: HASH,
  secretHash: HASH,
  codeHash: HASH,
  codeHashes: [HASH],
  challengeHash: HASH,
  deviceHash: HASH,
  tokenHash: HASH,
  refreshTokenHash: HASH,
  backupCodeHashes: [HASH],
  clientId: 'client-1',
  grantId: 'grant-1',
  endpointId: 'endpoint-1',
  url: 'https://hooks.example/x',
  eventTypes: ['user.created'],
  scopes: ['openid'],
  expiresAt: '2026-03-01T10:10:00.000Z',
  settings: { name: 'Example app', redirectUris: ['https://app.example/callback'] },
  source: 'operator',
  changes: { name: 'Renamed app' },
  reason: 'revoked',
  otpType: 'sign-in',
  lockedUntil: null,
  storedCounter: 5,
  presentedCounter: 3,
  deviceType: 'multiDevice',
  backedUp: true,
}
const LATER_FEATURE_TYPES = [
  'two-factor.totp-secret-created',
  'two-factor.enabled',
  'two-factor.disabled',
  'two-factor.backup-codes-generated',
  'two-factor.code-accepted',
  'two-factor.code-refused',
  'two-factor.code-mailed',
  'two-factor.challenge-started',
  'two-factor.challenge-passed',
  'two-factor.device-trusted',
  'two-factor.device-trust-renewed',
  'two-factor.trusted-devices-forgotten',
  'passkey.registered',
  'passkey.renamed',
  'passkey.deleted',
  'passkey.used',
  'passkey.clone-suspected',
  'magic-link.requested',
  'magic-link.used',
  'email-otp.code-issued',
  'email-otp.code-refused',
  'email-otp.code-used',
  'email-otp.code-voided',
  'oauth-client.registered',
  'oauth-client.updated',
  'oauth-client.secret-rotated',
  'oauth-client.deleted',
  'oauth-grant.code-issued',
  'oauth-grant.code-exchanged',
  'oauth-grant.refreshed',
  'oauth-grant.revoked',
  'oauth-consent.granted',
  'oauth-consent.revoked',
  'webhook.endpoint-created',
  'webhook.endpoint-updated',
  'webhook.endpoint-deleted',
  'webhook.secret-rotated',
  'webhook.endpoint-disabled',
  'webhook.replay-requested',
  'webhook.resend-requested',
  'sso-provider.registered',
  'sso-provider.secrets-set',
  'sso-provider.updated',
  'sso-provider.deleted',
  'sso-provider.domain-verification-requested',
  'sso-provider.domain-verified',
  'sso-provider.sso-requirement-set',
]

/** One event of every known type, each carrying every secret its type can hold. */
const EVERY_EVENT: ExampleEvent[] = [
  ...LATER_FEATURE_TYPES.map((type) => ({ type, data: LATER_FEATURE_DATA }) as unknown as ExampleEvent),
  {
    type: 'user.registered',
    data: {
      userId: USER,
      email: 'a@x.test',
      name: 'Ada',
      image: null,
      emailVerified: false,
      credential: { accountId: 'acc', passwordHash: HASH },
    },
  },
  {
    type: 'user.verification-email-requested',
    data: { userId: USER, email: 'a@x.test', callbackURL: '/cb' },
  },
  { type: 'user.email-verified', data: { userId: USER, email: 'a@x.test' } },
  {
    type: 'user.password-reset-requested',
    data: {
      userId: USER,
      email: 'a@x.test',
      requestId: REQUEST_ID,
      tokenHash: HASH,
      expiresAt: 'later',
      redirectTo: null,
    },
  },
  { type: 'user.password-reset', data: { userId: USER, tokenHash: HASH, passwordHash: HASH } },
  { type: 'user.password-changed', data: { userId: USER, passwordHash: HASH } },
  { type: 'user.password-set', data: { userId: USER, accountId: 'acc', passwordHash: HASH } },
  { type: 'user.password-removed', data: { userId: USER, accountId: 'acc' } },
  { type: 'user.profile-updated', data: { userId: USER, name: 'Ada L', image: null } },
  {
    type: 'user.username-changed',
    data: { userId: USER, username: 'ada_l', displayUsername: 'Ada_L', previousUsername: 'ada' },
  },
  {
    type: 'user.email-change-requested',
    data: { userId: USER, currentEmail: 'a@x.test', newEmail: 'b@x.test', callbackURL: null },
  },
  {
    type: 'user.email-change-confirmed',
    data: { userId: USER, currentEmail: 'a@x.test', newEmail: 'b@x.test', callbackURL: null },
  },
  {
    type: 'user.email-changed',
    data: { userId: USER, previousEmail: 'a@x.test', email: 'b@x.test', emailVerified: true },
  },
  {
    type: 'user.deletion-requested',
    data: {
      userId: USER,
      email: 'b@x.test',
      requestId: REQUEST_ID,
      tokenHash: HASH,
      expiresAt: 'later',
      callbackURL: null,
    },
  },
  { type: 'user.token-discarded', data: { userId: USER, tokenHash: HASH } },
  { type: 'user.sign-in-failed', data: { userId: USER, failedAt: '2026-03-01T10:00:00.000Z' } },
  {
    type: 'session.started',
    data: {
      sessionId: 's1',
      userId: USER,
      tokenHash: HASH,
      expiresAt: 'later',
      ipAddress: '198.51.100.2',
      userAgent: 'Session UA',
      rememberMe: true,
    },
  },
  { type: 'session.refreshed', data: { sessionId: 's1', expiresAt: 'later' } },
  { type: 'session.revoked', data: { sessionId: 's1', userId: USER, reason: 'revoked' } },
  { type: 'session.expired', data: { sessionId: 's1', userId: USER } },
  { type: 'user.deleted', data: { userId: USER, email: 'b@x.test' } },
  {
    type: 'user.deletion-notice-requested',
    data: { userId: USER, noticeId: 'n1', email: 'b@x.test', name: 'B' },
  },
  { type: 'user.deletion-notice-sent', data: { userId: USER, noticeId: 'n1' } },
  { type: 'user.role-set', data: { userId: USER, role: 'admin', previousRole: null } },
  { type: 'user.banned', data: { userId: USER, reason: 'spam', expiresAt: null } },
  { type: 'user.ban-details-set', data: { userId: USER, reason: 'spam', expiresAt: 'later' } },
  { type: 'user.unbanned', data: { userId: USER, expired: true } },
  {
    type: 'signing-key.created',
    data: { kid: 'k1', alg: 'EdDSA', publicJwk: {}, sealedPrivateKey: HASH, createdAt: 'now' },
  },
  { type: 'signing-key.retired', data: { kid: 'k1', retiredAt: 'later' } },
  {
    type: 'api-key.created',
    data: {
      keyId: 'key-1',
      userId: USER,
      prefix: null,
      start: 'abcdef',
      keyHash: HASH,
      name: 'ci',
      expiresAt: null,
      remaining: null,
      refillAmount: null,
      refillInterval: null,
      rateLimitEnabled: true,
      rateLimitTimeWindow: 86_400_000,
      rateLimitMax: 10,
      permissions: null,
      metadata: null,
      createdAt: 'now',
    },
  },
  { type: 'api-key.updated', data: { keyId: 'key-1', userId: USER, changes: { name: 'cd' } } },
  { type: 'api-key.enabled', data: { keyId: 'key-1', userId: USER } },
  { type: 'api-key.disabled', data: { keyId: 'key-1', userId: USER } },
  { type: 'api-key.deleted', data: { keyId: 'key-1', userId: USER, reason: 'deleted' } },
  { type: 'api-key.expired', data: { keyId: 'key-1', userId: USER, expiresAt: 'now' } },
  { type: 'api-key.used', data: { keyId: 'key-1', userId: USER, count: 3, from: 'then', to: 'now' } },
  {
    type: 'session.active-organization-set',
    data: { sessionId: 's1', userId: USER, organizationId: 'org-1', teamId: 'team-1' },
  },
  {
    type: 'account.linked',
    data: {
      userId: USER,
      accountId: 'link-1',
      providerId: 'github',
      providerAccountId: 'gh-42',
      email: 'a@x.test',
      linkedAt: 'now',
      accessToken: HASH,
      refreshToken: HASH,
      idToken: HASH,
      accessTokenExpiresAt: 'later',
      refreshTokenExpiresAt: 'later',
      scope: 'read:user',
    },
  },
  {
    type: 'account.tokens-updated',
    data: {
      userId: USER,
      accountId: 'link-1',
      updatedAt: 'now',
      accessToken: HASH,
      refreshToken: HASH,
      idToken: HASH,
      accessTokenExpiresAt: 'later',
      refreshTokenExpiresAt: 'later',
      scope: 'read:user',
    },
  },
  {
    type: 'account.unlinked',
    data: {
      userId: USER,
      accountId: 'link-1',
      providerId: 'github',
      providerAccountId: 'gh-42',
      unlinkedAt: 'now',
    },
  },
  {
    type: 'organization.created',
    data: {
      organizationId: 'org-1',
      name: 'Acme',
      slug: 'acme',
      logo: null,
      metadata: { plan: 'team' },
      createdAt: 'now',
      createdBy: USER,
    },
  },
  {
    type: 'organization.updated',
    data: {
      organizationId: 'org-1',
      name: 'Acme Inc',
      slug: 'acme-inc',
      previousSlug: 'acme',
      logo: null,
      metadata: null,
    },
  },
  { type: 'organization.deleted', data: { organizationId: 'org-1', slug: 'acme-inc' } },
  {
    type: 'organization.member-added',
    data: {
      organizationId: 'org-1',
      memberId: 'm1',
      userId: USER,
      roles: ['member'],
      createdAt: 'now',
      invitationId: 'inv-1',
    },
  },
  {
    type: 'organization.member-removed',
    data: { organizationId: 'org-1', memberId: 'm1', userId: USER, reason: 'left' },
  },
  {
    type: 'organization.member-role-updated',
    data: {
      organizationId: 'org-1',
      memberId: 'm1',
      userId: USER,
      roles: ['admin'],
      previousRoles: ['member'],
    },
  },
  {
    type: 'organization.invitation-created',
    data: {
      organizationId: 'org-1',
      invitationId: 'inv-1',
      email: 'a@x.test',
      inviteeSubject: 'invitee-a',
      roles: ['member'],
      teamIds: ['team-1'],
      inviterId: 'user-2',
      expiresAt: 'later',
      createdAt: 'now',
    },
  },
  {
    type: 'organization.invitation-renewed',
    data: { organizationId: 'org-1', invitationId: 'inv-1', inviteeSubject: 'invitee-a', expiresAt: 'later' },
  },
  {
    type: 'organization.invitation-accepted',
    data: {
      organizationId: 'org-1',
      invitationId: 'inv-1',
      inviteeSubject: 'invitee-a',
      userId: USER,
      memberId: 'm1',
    },
  },
  {
    type: 'organization.invitation-rejected',
    data: { organizationId: 'org-1', invitationId: 'inv-1', inviteeSubject: 'invitee-a', userId: USER },
  },
  {
    type: 'organization.invitation-canceled',
    data: { organizationId: 'org-1', invitationId: 'inv-1', inviteeSubject: 'invitee-a' },
  },
  {
    type: 'organization.team-created',
    data: { organizationId: 'org-1', teamId: 'team-1', name: 'Core', createdAt: 'now' },
  },
  {
    type: 'organization.team-updated',
    data: { organizationId: 'org-1', teamId: 'team-1', name: 'Platform', updatedAt: 'now' },
  },
  { type: 'organization.team-removed', data: { organizationId: 'org-1', teamId: 'team-1' } },
  {
    type: 'organization.team-member-added',
    data: { organizationId: 'org-1', teamId: 'team-1', teamMemberId: 'tm1', userId: USER, createdAt: 'now' },
  },
  {
    type: 'organization.team-member-removed',
    data: { organizationId: 'org-1', teamId: 'team-1', userId: USER },
  },
  {
    type: 'organization.role-created',
    data: {
      organizationId: 'org-1',
      roleId: 'r1',
      role: 'auditor',
      permission: { member: ['read'] },
      createdAt: 'now',
    },
  },
  {
    type: 'organization.role-updated',
    data: {
      organizationId: 'org-1',
      roleId: 'r1',
      role: 'auditor',
      permission: { member: ['read', 'update'] },
      updatedAt: 'now',
    },
  },
  { type: 'organization.role-deleted', data: { organizationId: 'org-1', roleId: 'r1', role: 'auditor' } },
  ...scimEvents(),
]

/** Directory sync: a person provisioned, changed, deactivated and removed; a credential's life. */
function scimEvents(): ExampleEvent[] {
  const owner = { userId: USER, organizationId: 'org-1', connectionId: 'okta' }
  const credential = { organizationId: 'org-1', connectionId: 'okta', credentialId: 'c1' }
  return [
    {
      type: 'scim.user-provisioned',
      data: { ...owner, userName: 'b@x.test', externalId: 'e1', active: true },
    },
    {
      type: 'scim.user-updated',
      data: {
        ...owner,
        userName: 'c@x.test',
        externalId: 'e1',
        previousUserName: 'b@x.test',
        previousExternalId: 'e1',
        attributes: ['userName'],
      },
    },
    { type: 'scim.user-deactivated', data: owner },
    { type: 'scim.user-reactivated', data: owner },
    { type: 'scim.user-deprovisioned', data: { ...owner, userName: 'c@x.test', externalId: 'e1' } },
    {
      type: 'scim.credential-issued',
      data: {
        ...credential,
        tokenHash: HASH,
        scopes: ['scim.users.read'],
        expiresAt: null,
        createdAt: 'now',
      },
    },
    { type: 'scim.credential-revoked', data: { ...credential, revokedAt: 'now' } },
    ...scimGroupEvents(),
  ]
}

/** A directory group: made, renamed, its members changed, deleted (the organization's feed only). */
function scimGroupEvents(): ExampleEvent[] {
  const group = { groupId: 'g1', organizationId: 'org-1', connectionId: 'okta' }
  return [
    { type: 'scim.group-created', data: { ...group, displayName: 'Eng', externalId: null, members: [USER] } },
    {
      type: 'scim.group-updated',
      data: {
        ...group,
        displayName: 'Engineers',
        externalId: null,
        previousDisplayName: 'Eng',
        previousExternalId: null,
      },
    },
    { type: 'scim.group-members-changed', data: { ...group, added: [], removed: [USER] } },
    {
      type: 'scim.group-deleted',
      data: { ...group, displayName: 'Engineers', externalId: null, members: [] },
    },
  ]
}

const recorded = (change: ActivityChange) => {
  if (change?.kind !== 'record') throw new Error(`expected an entry, got ${JSON.stringify(change)}`)
  return change.entry
}

const keysOf = (value: unknown): string[] =>
  value !== null && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
    : []

describe('activity entries', () => {
  it('never carries a hash, token or request id in the details of any event type', () => {
    const entries = EVERY_EVENT.map((event) => activityChangeOf(source(event)))
      .filter((change) => change?.kind === 'record')
      .map(recorded)
    expect(entries.length).toBeGreaterThan(12)
    for (const entry of entries) {
      for (const key of keysOf(entry.details)) expect(key).not.toMatch(/hash|token|requestId|correlation/i)
      const text = JSON.stringify(entry)
      for (const secret of [HASH, REQUEST_ID, 'correlation-secret']) expect(text).not.toContain(secret)
    }
  })

  it('leaves out the noise of refreshes and discarded tokens, and forgets everything on deletion', () => {
    const byType = new Map(EVERY_EVENT.map((event) => [event.type, activityChangeOf(source(event))]))
    expect(byType.get('session.refreshed')).toBeNull()
    expect(byType.get('user.token-discarded')).toBeNull()
    expect(byType.get('user.deleted')).toEqual({ kind: 'forget', userId: USER })
    // The notice's address lives under a subject of its own, forgotten once the notice is handled;
    // the user's history is not touched by it.
    expect(byType.get('user.deletion-notice-requested')).toBeNull()
    expect(byType.get('user.deletion-notice-sent')).toEqual({ kind: 'forget', userId: 'deletion-notice-n1' })
  })

  it('tells what changed, not the secrets: emails for an email change, field names for a profile', () => {
    const of = (type: string) => {
      const event = EVERY_EVENT.find((e) => e.type === type)
      if (!event) throw new Error(type)
      return recorded(activityChangeOf(source(event))).details
    }
    expect(of('user.email-changed')).toEqual({ previousEmail: 'a@x.test', email: 'b@x.test' })
    expect(of('user.profile-updated')).toEqual({ fields: ['name', 'image'] })
    expect(of('user.username-changed')).toEqual({
      previousUsername: 'ada',
      username: 'ada_l',
      displayUsername: 'Ada_L',
    })
    expect(of('session.revoked')).toEqual({ sessionId: 's1', reason: 'revoked' })
    expect(of('session.started')).toEqual({ sessionId: 's1', rememberMe: true })
    expect(of('user.password-changed')).toEqual({})
    expect(of('user.password-removed')).toEqual({})
  })

  it('names a revocation by sign-out as a sign-out', () => {
    const entry = recorded(
      activityChangeOf(
        source({ type: 'session.revoked', data: { sessionId: 's1', userId: USER, reason: 'sign-out' } }),
      ),
    )
    expect(entry).toMatchObject({ type: SIGNED_OUT, details: { reason: 'sign-out', sessionId: 's1' } })
  })

  it("takes a sign-in's address from the session, other events' from the request", () => {
    const [signIn] = EVERY_EVENT.filter((e) => e.type === 'session.started')
    if (!signIn) throw new Error('no sign-in')
    expect(recorded(activityChangeOf(source(signIn)))).toMatchObject({
      ip: '198.51.100.2',
      userAgent: 'Session UA',
    })
    const changed = recorded(
      activityChangeOf(source({ type: 'user.password-changed', data: { userId: USER, passwordHash: HASH } })),
    )
    expect(changed).toMatchObject({
      ip: '203.0.113.7',
      userAgent: 'Request UA',
      at: new Date('2026-03-01T10:00:00.000Z'),
    })
  })

  it('hides where a request came from when anyone who knows the address could have sent it', () => {
    const anonymous = metadata({ type: 'anonymous' })
    const reset = EVERY_EVENT.find((e) => e.type === 'user.password-reset-requested')
    if (!reset) throw new Error('no reset')
    expect(recorded(activityChangeOf(source(reset, anonymous)))).toMatchObject({ ip: null, userAgent: null })
    const bySomeoneElse = metadata({ type: 'user', userId: 'user-2' })
    const revoked: SessionEvent = {
      type: 'session.revoked',
      data: { sessionId: 's1', userId: USER, reason: 'revoked' },
    }
    expect(recorded(activityChangeOf(source(revoked, bySomeoneElse)))).toMatchObject({
      ip: null,
      userAgent: null,
    })
    // Following the mailed link proves the mailbox: that was the owner.
    const verified: UserEvent = { type: 'user.email-verified', data: { userId: USER, email: 'a@x.test' } }
    expect(recorded(activityChangeOf(source(verified, anonymous)))).toMatchObject({ ip: '203.0.113.7' })
  })

  it("shows where a failed sign-in came from, though a stranger's attempt is not the owner's doing", () => {
    const failed: UserEvent = {
      type: 'user.sign-in-failed',
      data: { userId: USER, failedAt: '2026-03-01T10:00:00.000Z' },
    }
    expect(activityChangeOf(source(failed, metadata({ type: 'anonymous' })))).toEqual({
      kind: 'record',
      deviceOfSession: null,
      entry: {
        id: 'event-user.sign-in-failed',
        userId: USER,
        type: 'user.sign-in-failed',
        at: new Date('2026-03-01T10:00:00.000Z'),
        ip: '203.0.113.7',
        userAgent: 'Request UA',
        details: {},
      },
    })
  })

  it('asks the projection for the device of the session a revocation ended, and only then', () => {
    const revoked: SessionEvent = {
      type: 'session.revoked',
      data: { sessionId: 's9', userId: USER, reason: 'revoked' },
    }
    expect(activityChangeOf(source(revoked))).toMatchObject({ kind: 'record', deviceOfSession: 's9' })
    const changed: UserEvent = { type: 'user.password-changed', data: { userId: USER, passwordHash: HASH } }
    expect(activityChangeOf(source(changed))).toMatchObject({ kind: 'record', deviceOfSession: null })
  })

  it('tolerates what an erased user reads as: null personal fields and metadata', () => {
    const erased = metadata(OWNER, { ip: null, userAgent: null, erased: true })
    const nulled = { userId: USER, previousEmail: null, email: null, emailVerified: true }
    const changed = activityChangeOf({ id: 'e', type: 'user.email-changed', data: nulled, metadata: erased })
    expect(recorded(changed)).toMatchObject({
      ip: null,
      userAgent: null,
      details: { previousEmail: null, email: null },
    })
    const signIn = {
      sessionId: 's',
      userId: USER,
      tokenHash: HASH,
      expiresAt: 'x',
      ipAddress: null,
      userAgent: null,
    }
    const started = activityChangeOf({ id: 'f', type: 'session.started', data: signIn, metadata: erased })
    expect(recorded(started)).toMatchObject({ ip: null, userAgent: null })
  })

  it('ignores event types no aggregate declares, even when they name a user', () => {
    const undeclared = { id: 'g', type: 'user.passkey-added', data: { userId: USER }, metadata: metadata() }
    expect(activityChangeOf(undeclared)).toBeNull()
    expect(activityChangeOf({ ...undeclared, id: 'h', type: 'org.created' })).toBeNull()
  })

  it("shows what support did while impersonating as done on the person's behalf, without their address", () => {
    const event: UserEvent = { type: 'user.profile-updated', data: { userId: USER, name: 'Ada L' } }
    const entry = recorded(activityChangeOf(source(event, metadata(OWNER, { impersonatedBy: 'admin-1' }))))
    expect(entry.details).toEqual({ fields: ['name'], bySupport: true })
    expect(entry.ip).toBeNull()
    expect(recorded(activityChangeOf(source(event))).details).toEqual({ fields: ['name'] })
  })

  it('covers every declared event type', () => {
    expect(new Set(EVERY_EVENT.map((event) => event.type))).toEqual(new Set(knownEventTypes()))
  })
})
