/// The optional `tessera.config.json`: feature options that do not fit in one variable. Every key
/// is checked; an unknown key or a wrong type stops the start with its path in the message.

import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import ipaddr from 'ipaddr.js'
import type { Static } from 'typebox'
import { DEFAULT_ADMIN_ROLES } from '../../domain/admin/permissions.js'
import { type BrandingOptions, parseBrandingOptions } from './branding-options.js'
import { ConfigError } from './config-error.js'
import { isObject, Section } from './config-section.js'
import { FEATURE_OPTION_SCHEMAS } from './feature-options.schema.js'
import { readOptions } from './option-schema.js'
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

/** A section of the file read by its schema (feature-options.schema.ts), as its schema says. */
type Read<Name extends keyof typeof FEATURE_OPTION_SCHEMAS> = Static<(typeof FEATURE_OPTION_SCHEMAS)[Name]>

/** Each option's type, default and meaning: feature-options.schema.ts (README's table is made from it). */
export type FeatureOptions = {
  emailAndPassword: Read<'emailAndPassword'>
  emailVerification: Read<'emailVerification'>
  session: Read<'session'>
  user: Read<'user'>
  username: Read<'username'>
  rateLimit: Read<'rateLimit'>
  serverApi: Read<'serverApi'>
  jwt: Read<'jwt'>
  organization: Read<'organization'>
  /** Social sign-in providers by id, as written (secrets may name environment variables). */
  socialProviders: Record<string, SocialProviderFileOptions>
  account: Read<'account'>
  apiKey: Read<'apiKey'>
  webhooks: Read<'webhooks'>
  admin: Read<'admin'>
  /** Second factors (better-auth's twoFactor plugin options; two-factor-options.ts). */
  twoFactor: TwoFactorOptions
  /** Passkeys (better-auth's passkey plugin options of the same names; infra/config/passkey-options.ts). */
  passkey: PasskeyFileOptions
  /** Sign-in links by mail (better-auth's magicLink plugin options; infra/config/passwordless-options.ts). */
  magicLink: MagicLinkOptions
  /** One-time codes by mail (better-auth's emailOTP plugin options; infra/config/passwordless-options.ts). */
  emailOTP: EmailOtpOptions
  oauthProvider: Read<'oauthProvider'>
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
    emailAndPassword: readOptions(root.section('emailAndPassword'), FEATURE_OPTION_SCHEMAS.emailAndPassword),
    emailVerification: readOptions(
      root.section('emailVerification'),
      FEATURE_OPTION_SCHEMAS.emailVerification,
    ),
    session: readOptions(root.section('session'), FEATURE_OPTION_SCHEMAS.session),
    user: readOptions(root.section('user'), FEATURE_OPTION_SCHEMAS.user),
    username: readOptions(root.section('username'), FEATURE_OPTION_SCHEMAS.username),
    rateLimit: readOptions(root.section('rateLimit'), FEATURE_OPTION_SCHEMAS.rateLimit),
    serverApi: readOptions(root.section('serverApi'), FEATURE_OPTION_SCHEMAS.serverApi),
    jwt: readOptions(root.section('jwt'), FEATURE_OPTION_SCHEMAS.jwt),
    organization: readOptions(root.section('organization'), FEATURE_OPTION_SCHEMAS.organization),
    apiKey: readOptions(root.section('apiKey'), FEATURE_OPTION_SCHEMAS.apiKey),
    account: readOptions(root.section('account'), FEATURE_OPTION_SCHEMAS.account),
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

const webhooks = (section: Section): FeatureOptions['webhooks'] => {
  const options = readOptions(section, FEATURE_OPTION_SCHEMAS.webhooks)
  const bad = options.allowAddresses.find((range) => !isCidr(range))
  if (bad !== undefined)
    throw section.error(
      'webhooks.allowAddresses',
      `holds "${bad}", which is not an address range such as 127.0.0.0/8`,
    )
  return options
}

const isCidr = (range: string): boolean => {
  try {
    ipaddr.parseCIDR(range)
    return true
  } catch {
    return false
  }
}

const admin = (section: Section): FeatureOptions['admin'] => {
  const options = readOptions(section, FEATURE_OPTION_SCHEMAS.admin)
  const unknown = options.adminRoles.find((role) => !Object.hasOwn(DEFAULT_ADMIN_ROLES, role))
  if (unknown !== undefined)
    throw section.error(
      'admin.adminRoles',
      `names "${unknown}", which is not a role (${Object.keys(DEFAULT_ADMIN_ROLES).join(', ')})`,
    )
  return options
}

const OAUTH_PROVIDER_SCOPES = ['openid', 'profile', 'email', 'offline_access', 'organization']

/** On once the file has an `oauthProvider` section, as better-auth's plugin is once it is added. */
const oauthProvider = (section: Section, present: boolean): FeatureOptions['oauthProvider'] => {
  const options = readOptions(section, FEATURE_OPTION_SCHEMAS.oauthProvider, { enabled: present })
  // Custom scopes are added to the standard ones, which are always offered.
  return { ...options, scopes: [...new Set([...OAUTH_PROVIDER_SCOPES, ...options.scopes])] }
}

export { Section } from './config-section.js'
