/// The optional `tessera.config.json`: feature options that do not fit in one variable. Every key
/// is checked; an unknown key or a wrong type stops the start with its path in the message.

import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import ipaddr from 'ipaddr.js'
import {
  ADMIN_ROLE_NAMES,
  DEFAULT_ADMIN_ROLES,
  IMPERSONATION_SECONDS,
} from '../../domain/admin/permissions.js'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { DEFAULT_BAN_REASON } from '../../domain/user/ban.js'
import { DEFAULT_JWT_ALGORITHM, JWT_ALGORITHMS, type JwtAlgorithm } from '../crypto/jwt/signing-key.js'
import { type BrandingOptions, parseBrandingOptions } from './branding-options.js'
import { ConfigError } from './config-error.js'
import { isObject, Section } from './config-section.js'
import { type PasskeyFileOptions, parsePasskeyOptions } from './passkey-options.js'
import {
  type EmailOtpOptions,
  type MagicLinkOptions,
  parseEmailOtpOptions,
  parseMagicLinkOptions,
} from './passwordless-options.js'
import { parseScimOptions, type ScimFileOptions } from './scim-options.js'
import { parseSocialProviders, type SocialProviderFileOptions } from './social-providers.js'
import { parseSsoOptions, type SsoOptions } from './sso-options.js'
import { parseTwoFactorOptions, type TwoFactorOptions } from './two-factor-options.js'

export type FeatureOptions = {
  emailAndPassword: {
    enabled: boolean
    requireEmailVerification: boolean
    minPasswordLength: number
    maxPasswordLength: number
    autoSignIn: boolean
    /** Refuse the most common passwords (domain/user/password-policy.ts); on by default. */
    rejectCommonPasswords: boolean
  }
  emailVerification: { sendOnSignUp: boolean; autoSignInAfterVerification: boolean; expiresIn: number }
  /** Seconds. `freshAge` 0 disables the freshness check. */
  session: { expiresIn: number; updateAge: number; freshAge: number }
  user: { deleteUser: { enabled: boolean; immediate: boolean }; changeEmail: { enabled: boolean } }
  /** Username rules (better-auth's username plugin options of the same names). */
  username: { minUsernameLength: number; maxUsernameLength: number }
  /** `window` in seconds, `max` requests per window. */
  rateLimit: { window: number; max: number }
  /** Calls per server key (`SERVER_KEYS`) per `window` seconds, on all instances together with Redis. */
  serverApi: { rateLimit: { window: number; max: number } }
  /**
   * JWTs (`/token`, `/jwks`, get-session's `set-auth-jwt`). Seconds. `rotationIntervalSeconds`
   * null: keys rotate only by `tessera jwks rotate`.
   */
  jwt: {
    enabled: boolean
    algorithm: JwtAlgorithm
    rotationIntervalSeconds: number | null
    lifetimeSeconds: number
  }
  /**
   * Organizations (better-auth's organization plugin options of the same names). Seconds for
   * `invitationExpiresIn`; null limits are unlimited. `creatorRole` is a built-in role.
   */
  organization: {
    allowUserToCreateOrganization: boolean
    organizationLimit: number | null
    creatorRole: 'owner' | 'admin' | 'member'
    membershipLimit: number
    invitationLimit: number
    invitationExpiresIn: number
    requireEmailVerificationOnInvitation: boolean
    disableOrganizationDeletion: boolean
    teams: {
      enabled: boolean
      defaultTeam: boolean
      maximumTeams: number | null
      maximumMembersPerTeam: number | null
      allowRemovingAllTeams: boolean
    }
    dynamicAccessControl: { enabled: boolean; maximumRolesPerOrganization: number | null }
  }
  /** Social sign-in providers by id, as written (secrets may name environment variables). */
  socialProviders: Record<string, SocialProviderFileOptions>
  /**
   * Linking social accounts to users (better-auth's `account.accountLinking` options of the same
   * names and defaults): `trustedProviders` link by email whatever they say about verification.
   */
  account: {
    accountLinking: {
      enabled: boolean
      trustedProviders: string[]
      allowDifferentEmails: boolean
      allowUnlinkingAll: boolean
      updateUserInfoOnLink: boolean
      disableImplicitLinking: boolean
      requireLocalEmailVerified: boolean
    }
  }
  /** API keys (better-auth's api-key plugin options of the same names): both off by default. */
  apiKey: { enableMetadata: boolean; enableSessionForAPIKeys: boolean }
  /** Webhooks: address ranges (CIDR) an operator allows besides public ones, e.g. 127.0.0.0/8. */
  webhooks: { allowAddresses: string[] }
  /**
   * Administration (better-auth's admin plugin options of the same names and defaults). Seconds for
   * `impersonationSessionDuration` and `defaultBanExpiresIn` (null: a ban without an expiry lasts);
   * `adminRoles` name known roles; `adminUserIds` hold every admin permission whatever their role.
   */
  admin: {
    /** The role a new account gets (stored with it); `user`, the built-in default, stores nothing. */
    defaultRole: 'admin' | 'user'
    adminRoles: string[]
    adminUserIds: string[]
    impersonationSessionDuration: number
    allowImpersonatingAdmins: boolean
    defaultBanReason: string
    defaultBanExpiresIn: number | null
    bannedUserMessage: string
  }
  /** Second factors (better-auth's twoFactor plugin options; two-factor-options.ts). */
  twoFactor: TwoFactorOptions
  /** Passkeys (better-auth's passkey plugin options of the same names; infra/config/passkey-options.ts). */
  passkey: PasskeyFileOptions
  /** Sign-in links by mail (better-auth's magicLink plugin options; infra/config/passwordless-options.ts). */
  magicLink: MagicLinkOptions
  /** One-time codes by mail (better-auth's emailOTP plugin options; infra/config/passwordless-options.ts). */
  emailOTP: EmailOtpOptions
  /**
   * Tessera as an OAuth 2.1 / OpenID Connect provider (better-auth's oauth-provider plugin options
   * of the same names and defaults). Seconds for the lifetimes; `loginPage` and `consentPage` are
   * the portal's pages the authorization request is sent to.
   */
  oauthProvider: {
    enabled: boolean
    allowDynamicClientRegistration: boolean
    allowUnauthenticatedClientRegistration: boolean
    codeExpiresIn: number
    accessTokenExpiresIn: number
    m2mAccessTokenExpiresIn: number
    idTokenExpiresIn: number
    refreshTokenExpiresIn: number
    scopes: string[]
    loginPage: string
    consentPage: string
  }
  /** SCIM connections an operator declares (better-auth's SCIM plugin option names). */
  scim: ScimFileOptions
  /** Enterprise single sign-on (`@better-auth/sso`'s option names; infra/config/sso-options.ts). */
  sso: SsoOptions
  /** The product's name, logo, accent colour and back link (infra/config/branding-options.ts). */
  branding: BrandingOptions
}

export const DEFAULT_CONFIG_FILE = 'tessera.config.json'

/** Reads and validates the file; a missing default file means all defaults. */
export const loadFeatureOptions = (cwd: string, configuredPath: string | undefined): FeatureOptions => {
  const label = configuredPath ?? DEFAULT_CONFIG_FILE
  const text = readConfigFile(resolve(cwd, label), label, configuredPath !== undefined)
  if (text === undefined) return parseFeatureOptions({}, label)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(
      label,
      `${label}: not valid JSON (${error instanceof Error ? error.message : error})`,
    )
  }
  return parseFeatureOptions(json, label)
}

const readConfigFile = (path: string, label: string, required: boolean): string | undefined => {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT'
    if (missing && !required) return undefined
    const reason = missing ? 'file not found' : String(error)
    throw new ConfigError(label, `${label}: cannot read ${path} (${reason}; set by TESSERA_CONFIG)`)
  }
}

export const parseFeatureOptions = (json: unknown, label = DEFAULT_CONFIG_FILE): FeatureOptions => {
  const root = new Section(label, '', json)
  const options: FeatureOptions = {
    emailAndPassword: emailAndPassword(root.section('emailAndPassword')),
    emailVerification: emailVerification(root.section('emailVerification')),
    session: session(root.section('session')),
    user: user(root.section('user')),
    username: username(root.section('username')),
    rateLimit: rateLimit(root.section('rateLimit')),
    serverApi: serverApi(root.section('serverApi')),
    jwt: jwt(root.section('jwt')),
    organization: organization(root.section('organization')),
    apiKey: apiKey(root.section('apiKey')),
    account: account(root.section('account')),
    admin: admin(root.section('admin')),
    twoFactor: parseTwoFactorOptions(root.section('twoFactor')),
    webhooks: webhooks(root.section('webhooks')),
    oauthProvider: oauthProvider(root.section('oauthProvider'), isObject(json) && 'oauthProvider' in json),
    socialProviders: parseSocialProviders(root.raw('socialProviders'), (path, reason) =>
      root.error(path, reason),
    ),
    passkey: parsePasskeyOptions(root.raw('passkey'), (path, reason) => root.error(path, reason)),
    magicLink: parseMagicLinkOptions(root.raw('magicLink'), (path, reason) => root.error(path, reason)),
    emailOTP: parseEmailOtpOptions(root.raw('emailOTP'), (path, reason) => root.error(path, reason)),
    scim: parseScimOptions(root.raw('scim'), (path, reason) => root.error(path, reason)),
    sso: parseSsoOptions(root.section('sso')),
    branding: parseBrandingOptions(root.section('branding')),
  }
  root.rejectUnread()
  const { minUsernameLength, maxUsernameLength } = options.username
  if (minUsernameLength > maxUsernameLength)
    throw root.error(
      'username.minUsernameLength',
      `must not exceed username.maxUsernameLength (${maxUsernameLength})`,
    )
  const { minPasswordLength, maxPasswordLength } = options.emailAndPassword
  if (minPasswordLength > maxPasswordLength) {
    throw root.error(
      'emailAndPassword.minPasswordLength',
      `must not exceed emailAndPassword.maxPasswordLength (${maxPasswordLength})`,
    )
  }
  return options
}

const emailAndPassword = (section: Section): FeatureOptions['emailAndPassword'] =>
  section.done({
    enabled: section.boolean('enabled', true),
    requireEmailVerification: section.boolean('requireEmailVerification', false),
    minPasswordLength: section.integer('minPasswordLength', 8, 1),
    maxPasswordLength: section.integer('maxPasswordLength', 128, 1),
    autoSignIn: section.boolean('autoSignIn', true),
    rejectCommonPasswords: section.boolean('rejectCommonPasswords', true),
  })

const emailVerification = (section: Section): FeatureOptions['emailVerification'] =>
  section.done({
    sendOnSignUp: section.boolean('sendOnSignUp', false),
    autoSignInAfterVerification: section.boolean('autoSignInAfterVerification', false),
    expiresIn: section.integer('expiresIn', 3600, 1),
  })

const session = (section: Section): FeatureOptions['session'] =>
  section.done({
    expiresIn: section.integer('expiresIn', 604_800, 1),
    updateAge: section.integer('updateAge', 86_400, 0),
    freshAge: section.integer('freshAge', 86_400, 0),
  })

const user = (section: Section): FeatureOptions['user'] => {
  const deleteUser = section.section('deleteUser')
  const changeEmail = section.section('changeEmail')
  return section.done({
    deleteUser: deleteUser.done({
      enabled: deleteUser.boolean('enabled', true),
      immediate: deleteUser.boolean('immediate', false),
    }),
    changeEmail: changeEmail.done({ enabled: changeEmail.boolean('enabled', true) }),
  })
}

const username = (section: Section): FeatureOptions['username'] =>
  section.done({
    minUsernameLength: section.integer('minUsernameLength', 3, 1),
    maxUsernameLength: section.integer('maxUsernameLength', 30, 1),
  })

const rateLimit = (section: Section): FeatureOptions['rateLimit'] =>
  section.done({ window: section.integer('window', 10, 1), max: section.integer('max', 100, 1) })

const serverApi = (section: Section): FeatureOptions['serverApi'] => {
  const limit = section.section('rateLimit')
  return section.done({
    rateLimit: limit.done({ window: limit.integer('window', 10, 1), max: limit.integer('max', 200_000, 1) }),
  })
}

const jwt = (section: Section): FeatureOptions['jwt'] =>
  section.done({
    enabled: section.boolean('enabled', true),
    algorithm: section.oneOf('algorithm', JWT_ALGORITHMS, DEFAULT_JWT_ALGORITHM),
    rotationIntervalSeconds: section.integerOrNull('rotationIntervalSeconds', null),
    lifetimeSeconds: section.integer('lifetimeSeconds', 900, 1),
  })

const apiKey = (section: Section): FeatureOptions['apiKey'] =>
  section.done({
    enableMetadata: section.boolean('enableMetadata', false),
    enableSessionForAPIKeys: section.boolean('enableSessionForAPIKeys', false),
  })

const webhooks = (section: Section): FeatureOptions['webhooks'] => {
  const allowAddresses = section.textList('allowAddresses', [])
  const bad = allowAddresses.find((range) => !isCidr(range))
  if (bad !== undefined)
    throw section.error(
      'webhooks.allowAddresses',
      `holds "${bad}", which is not an address range such as 127.0.0.0/8`,
    )
  return section.done({ allowAddresses })
}

const isCidr = (range: string): boolean => {
  try {
    ipaddr.parseCIDR(range)
    return true
  } catch {
    return false
  }
}

const account = (section: Section): FeatureOptions['account'] => {
  const linking = section.section('accountLinking')
  return section.done({
    accountLinking: linking.done({
      enabled: linking.boolean('enabled', true),
      trustedProviders: linking.idList('trustedProviders'),
      allowDifferentEmails: linking.boolean('allowDifferentEmails', false),
      allowUnlinkingAll: linking.boolean('allowUnlinkingAll', false),
      updateUserInfoOnLink: linking.boolean('updateUserInfoOnLink', false),
      disableImplicitLinking: linking.boolean('disableImplicitLinking', false),
      requireLocalEmailVerified: linking.boolean('requireLocalEmailVerified', true),
    }),
  })
}

const admin = (section: Section): FeatureOptions['admin'] => {
  const adminRoles = section.textList('adminRoles', ADMIN_ROLE_NAMES)
  const unknown = adminRoles.find((role) => !Object.hasOwn(DEFAULT_ADMIN_ROLES, role))
  if (unknown !== undefined)
    throw section.error(
      'admin.adminRoles',
      `names "${unknown}", which is not a role (${Object.keys(DEFAULT_ADMIN_ROLES).join(', ')})`,
    )
  return section.done({
    defaultRole: section.oneOf('defaultRole', ['admin', 'user'], 'user'),
    adminRoles,
    adminUserIds: section.textList('adminUserIds', []),
    impersonationSessionDuration: section.integer('impersonationSessionDuration', IMPERSONATION_SECONDS, 1),
    allowImpersonatingAdmins: section.boolean('allowImpersonatingAdmins', false),
    defaultBanReason: section.text('defaultBanReason', DEFAULT_BAN_REASON),
    defaultBanExpiresIn: section.integerOrNull('defaultBanExpiresIn', null),
    bannedUserMessage: section.text('bannedUserMessage', AUTH_ERRORS.BANNED_USER.message),
  })
}

const organization = (section: Section): FeatureOptions['organization'] => {
  const teams = section.section('teams')
  const dynamic = section.section('dynamicAccessControl')
  return section.done({
    allowUserToCreateOrganization: section.boolean('allowUserToCreateOrganization', true),
    organizationLimit: section.integerOrNull('organizationLimit', null),
    creatorRole: section.oneOf('creatorRole', ['owner', 'admin', 'member'], 'owner'),
    membershipLimit: section.integer('membershipLimit', 100, 1),
    invitationLimit: section.integer('invitationLimit', 100, 1),
    invitationExpiresIn: section.integer('invitationExpiresIn', 172_800, 1),
    requireEmailVerificationOnInvitation: section.boolean('requireEmailVerificationOnInvitation', false),
    disableOrganizationDeletion: section.boolean('disableOrganizationDeletion', false),
    teams: teams.done({
      enabled: teams.boolean('enabled', true),
      defaultTeam: teams.boolean('defaultTeam', true),
      maximumTeams: teams.integerOrNull('maximumTeams', null),
      maximumMembersPerTeam: teams.integerOrNull('maximumMembersPerTeam', null),
      allowRemovingAllTeams: teams.boolean('allowRemovingAllTeams', false),
    }),
    dynamicAccessControl: dynamic.done({
      enabled: dynamic.boolean('enabled', false),
      maximumRolesPerOrganization: dynamic.integerOrNull('maximumRolesPerOrganization', null),
    }),
  })
}

const OAUTH_PROVIDER_SCOPES = ['openid', 'profile', 'email', 'offline_access', 'organization']

/** On once the file has an `oauthProvider` section, as better-auth's plugin is once it is added. */
const oauthProvider = (section: Section, present: boolean): FeatureOptions['oauthProvider'] =>
  section.done({
    enabled: section.boolean('enabled', present),
    allowDynamicClientRegistration: section.boolean('allowDynamicClientRegistration', false),
    allowUnauthenticatedClientRegistration: section.boolean('allowUnauthenticatedClientRegistration', false),
    codeExpiresIn: section.integer('codeExpiresIn', 600, 1),
    accessTokenExpiresIn: section.integer('accessTokenExpiresIn', 3600, 1),
    m2mAccessTokenExpiresIn: section.integer('m2mAccessTokenExpiresIn', 3600, 1),
    idTokenExpiresIn: section.integer('idTokenExpiresIn', 36_000, 1),
    refreshTokenExpiresIn: section.integer('refreshTokenExpiresIn', 2_592_000, 1),
    // Custom scopes are added to the standard ones, which are always offered.
    scopes: [...new Set([...OAUTH_PROVIDER_SCOPES, ...section.textList('scopes', [])])],
    loginPage: section.text('loginPage', '/oauth/login'),
    consentPage: section.text('consentPage', '/oauth/consent'),
  })

export { Section } from './config-section.js'
