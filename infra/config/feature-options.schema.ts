/// The options of `tessera.config.json` that config-file.ts reads by schema: each spelled once here,
/// with its type, default and description (README's table is written from these; a unit test checks
/// that it is). Names and defaults are better-auth 1.7.5's where an option has the same name there.
/// Seconds for every duration. To add an option: add it here, then `node scripts/config-table.mjs --write`.

import { ADMIN_ROLE_NAMES, IMPERSONATION_SECONDS } from '../../domain/admin/permissions.js'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { DEFAULT_BAN_REASON } from '../../domain/user/ban.js'
import { DEFAULT_JWT_ALGORITHM, JWT_ALGORITHMS } from '../crypto/jwt/signing-key.js'
import { choice, flag, group, ids, limit, text, texts, whole } from './option-schema.js'

export const emailAndPasswordOptions = group({
  enabled: flag(true, 'sign-up and sign-in with an email and a password'),
  requireEmailVerification: flag(false, 'refuse to sign in an address that is not verified'),
  minPasswordLength: whole(8, 'shortest password accepted'),
  maxPasswordLength: whole(128, 'longest password accepted'),
  autoSignIn: flag(true, 'a sign-up starts a session'),
  rejectCommonPasswords: flag(
    true,
    'refuse the 49,000 most common passwords (a list shipped with Tessera) with `PASSWORD_COMPROMISED`',
  ),
})

export const emailVerificationOptions = group({
  sendOnSignUp: flag(false, 'mail a verification link on sign-up'),
  autoSignInAfterVerification: flag(false, 'following the link starts a session'),
  expiresIn: whole(3600, 'how long a verification link works'),
})

export const sessionOptions = group({
  expiresIn: whole(604_800, 'how long a session lasts; using it extends it (see `updateAge`)'),
  updateAge: whole(86_400, 'how often a used session is extended', 0),
  freshAge: whole(86_400, 'how recent a sign-in sensitive changes need; 0 disables the check', 0),
})

export const userOptions = group({
  deleteUser: group({
    enabled: flag(true, 'people may delete their account'),
    immediate: flag(false, 'delete at once instead of after a confirmation mail'),
  }),
  changeEmail: group({ enabled: flag(true, 'people may change their address') }),
})

export const usernameOptions = group({
  minUsernameLength: whole(3, 'shortest username'),
  maxUsernameLength: whole(30, 'longest username'),
})

export const rateLimitOptions = group({
  window: whole(10, "the rate limit's window"),
  max: whole(100, 'requests per window and address (with `RATE_LIMIT=on`)'),
})

export const serverApiOptions = group({
  rateLimit: group({
    window: whole(10, 'the window of each server key'),
    max: whole(200_000, 'calls per window and server key (`SERVER_KEYS`)'),
  }),
})

export const jwtOptions = group({
  enabled: flag(true, "`/token`, `/jwks` and get-session's `set-auth-jwt`"),
  algorithm: choice(JWT_ALGORITHMS, DEFAULT_JWT_ALGORITHM, "the signing keys' algorithm"),
  rotationIntervalSeconds: limit(
    null,
    'rotate the signing key this often; null: only by `tessera jwks rotate`',
  ),
  lifetimeSeconds: whole(900, 'how long a JWT is valid'),
})

export const apiKeyOptions = group({
  enableMetadata: flag(false, 'keys may carry metadata'),
  enableSessionForAPIKeys: flag(false, 'an `x-api-key` header gets a session (get-session)'),
})

export const webhooksOptions = group({
  allowAddresses: texts(
    [],
    'address ranges (CIDR, e.g. `127.0.0.0/8`) endpoints may resolve to besides public ones',
  ),
})

export const accountOptions = group({
  accountLinking: group({
    enabled: flag(true, 'link a social account to the user with its address'),
    trustedProviders: ids('providers that link by address whatever they say about verification'),
    allowDifferentEmails: flag(false, "link an account whose address differs from the user's"),
    allowUnlinkingAll: flag(false, 'unlink the last account'),
    updateUserInfoOnLink: flag(false, 'take name and picture from a newly linked account'),
    disableImplicitLinking: flag(false, 'link only on request, never at sign-in'),
    requireLocalEmailVerified: flag(true, 'link at sign-in only to a verified address'),
  }),
})

export const adminOptions = group({
  defaultRole: choice(['admin', 'user'], 'user', 'the role a new account gets'),
  adminRoles: texts(ADMIN_ROLE_NAMES, 'roles that hold admin permissions'),
  adminUserIds: texts([], 'users who hold every admin permission whatever their role'),
  impersonationSessionDuration: whole(IMPERSONATION_SECONDS, 'how long an impersonation lasts'),
  allowImpersonatingAdmins: flag(false, 'admins may impersonate other admins'),
  defaultBanReason: text(DEFAULT_BAN_REASON, 'the reason of a ban given none'),
  defaultBanExpiresIn: limit(null, 'how long a ban given no expiry lasts; null: until lifted'),
  bannedUserMessage: text(AUTH_ERRORS.BANNED_USER.message, 'what a banned person is told at sign-in'),
})

export const organizationOptions = group({
  allowUserToCreateOrganization: flag(true, 'people may create organizations'),
  organizationLimit: limit(null, 'organizations one person may create; null: no limit'),
  creatorRole: choice(['owner', 'admin', 'member'], 'owner', "the creator's role"),
  membershipLimit: whole(100, 'members per organization'),
  invitationLimit: whole(100, 'pending invitations per organization'),
  invitationExpiresIn: whole(172_800, 'how long an invitation is valid'),
  requireEmailVerificationOnInvitation: flag(false, 'only a verified address may accept an invitation'),
  disableOrganizationDeletion: flag(false, 'refuse to delete organizations'),
  teams: group({
    enabled: flag(true, 'teams inside organizations'),
    defaultTeam: flag(true, 'a new organization gets a team of its name'),
    maximumTeams: limit(null, 'teams per organization; null: no limit'),
    maximumMembersPerTeam: limit(null, 'members per team; null: no limit'),
    allowRemovingAllTeams: flag(false, "remove an organization's last team"),
  }),
  dynamicAccessControl: group({
    enabled: flag(false, 'organizations may define roles of their own'),
    maximumRolesPerOrganization: limit(null, 'roles per organization; null: no limit'),
  }),
})

export const oauthProviderOptions = group({
  enabled: flag(false, 'Tessera as an OAuth 2.1 / OpenID provider; on once the file has this section'),
  allowDynamicClientRegistration: flag(false, 'clients may register themselves (RFC 7591)'),
  allowUnauthenticatedClientRegistration: flag(false, 'registration without a session or token'),
  codeExpiresIn: whole(600, 'how long an authorization code is valid'),
  accessTokenExpiresIn: whole(3600, 'how long an access token is valid'),
  m2mAccessTokenExpiresIn: whole(3600, 'how long a client-credentials access token is valid'),
  idTokenExpiresIn: whole(36_000, 'how long an ID token is valid'),
  refreshTokenExpiresIn: whole(2_592_000, 'how long a refresh token is valid'),
  scopes: texts([], 'scopes offered besides `openid`, `profile`, `email`, `offline_access`, `organization`'),
  loginPage: text('/oauth/login', 'the portal page an authorization request signs in on'),
  consentPage: text('/oauth/consent', 'the portal page that asks for consent'),
})

/** The file's sections read by schema, in README's order. */
export const FEATURE_OPTION_SCHEMAS = {
  emailAndPassword: emailAndPasswordOptions,
  emailVerification: emailVerificationOptions,
  session: sessionOptions,
  user: userOptions,
  username: usernameOptions,
  rateLimit: rateLimitOptions,
  serverApi: serverApiOptions,
  jwt: jwtOptions,
  organization: organizationOptions,
  apiKey: apiKeyOptions,
  account: accountOptions,
  admin: adminOptions,
  webhooks: webhooksOptions,
  oauthProvider: oauthProviderOptions,
}
