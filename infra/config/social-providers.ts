/// `socialProviders` in tessera.config.json, keyed by provider id:
///   {"github": {"clientId": "…", "clientSecret": {"env": "GITHUB_CLIENT_SECRET"}},
///    "acme": {"issuer": "https://id.acme.test", "clientId": "…", "clientSecret": "…",
///             "scopes": ["groups"], "trusted": false}}
/// A built-in id (infra/oauth/provider-catalogue.ts) knows its endpoints; any other id is a generic
/// OpenID provider found by discovery from `issuer`. `clientId` and `clientSecret` are text or
/// `{"env": "NAME"}` (read from the environment, so secrets stay out of the file). A provider whose
/// id or secret is missing is not offered, with a warning at start.
///
/// Per provider, as better-auth's provider options of the same names: `disableSignUp` (nobody new
/// signs up through it), `disableImplicitSignUp` (only a sign-in that asks with `requestSignUp`
/// does), `overrideUserInfoOnSignIn` (each sign-in copies the provider's name, picture and address
/// onto the user). Endpoints may be moved (`authorizationEndpoint`, `tokenEndpoint`,
/// `userInfoEndpoint`, and GitHub's `emailsEndpoint`) for the OAuth 2.0 providers (github,
/// discord): a GitHub Enterprise server, a proxy, or a local server in tests; an OpenID provider
/// moves with its `issuer`. Microsoft takes `tenantId` (its issuer is then that tenant's). Apple may
/// take `teamId`, `keyId` and `privateKey` (its Sign in with Apple key, PKCS #8 PEM) instead of a
/// `clientSecret`: Tessera then signs a short-lived client secret for each token request.

import { BUILT_IN_PROVIDERS, displayNameOf } from '../oauth/provider-catalogue.js'

/** Text written in the file, or the name of an environment variable that holds it. */
export type SecretSource = { value: string } | { env: string }

/** Where a provider's endpoints are, when not where the catalogue says. */
export type EndpointOverrides = {
  authorizationEndpoint?: string
  tokenEndpoint?: string
  userInfoEndpoint?: string
  /** GitHub's list of the user's addresses (`/user/emails`). */
  emailsEndpoint?: string
}

/** Apple's key for signing client secrets; the private key as text or an environment variable. */
export type AppleKeySource = { teamId: string; keyId: string; privateKey: SecretSource }
export type AppleKey = { teamId: string; keyId: string; privateKey: string }

/** Whether and how a provider may create users or rewrite them (better-auth's names). */
export type SignUpOptions = {
  disableSignUp: boolean
  disableImplicitSignUp: boolean
  overrideUserInfoOnSignIn: boolean
}

export type SocialProviderFileOptions = SignUpOptions & {
  issuer: string | null
  clientId: SecretSource | null
  clientSecret: SecretSource | null
  scopes: string[]
  trusted: boolean
  endpoints: EndpointOverrides
  /** Microsoft: `common` (default), `organizations`, `consumers`, or one tenant. */
  tenantId: string | null
  appleKey: AppleKeySource | null
}

/** A provider ready to offer: secrets resolved. */
export type SocialProviderSettings = SignUpOptions & {
  id: string
  name: string
  /** Null for a built-in provider with fixed endpoints (or a built-in issuer). */
  issuer: string | null
  clientId: string
  /** Null for Apple with a signing key (`appleKey`): each token request signs its own. */
  clientSecret: string | null
  scopes: readonly string[]
  trusted: boolean
  endpoints: EndpointOverrides
  tenantId: string | null
  appleKey: AppleKey | null
}

type Fail = (path: string, reason: string) => Error

const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/
const ENDPOINT_KEYS = [
  'authorizationEndpoint',
  'tokenEndpoint',
  'userInfoEndpoint',
  'emailsEndpoint',
] as const
const SWITCHES = ['trusted', 'disableSignUp', 'disableImplicitSignUp', 'overrideUserInfoOnSignIn'] as const
const KEYS = new Set<string>([
  'issuer',
  'clientId',
  'clientSecret',
  'scopes',
  ...SWITCHES,
  ...ENDPOINT_KEYS,
  'tenantId',
  'teamId',
  'keyId',
  'privateKey',
])
// A tenant's GUID or domain, or one of Microsoft's multi-tenant names: it becomes a URL path segment.
const TENANT = /^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/

export const parseSocialProviders = (
  value: unknown,
  fail: Fail,
): Record<string, SocialProviderFileOptions> => {
  if (value === undefined) return {}
  if (!isObject(value)) throw fail('socialProviders', 'must be an object')
  const providers: Record<string, SocialProviderFileOptions> = {}
  for (const [id, entry] of Object.entries(value)) {
    const path = `socialProviders.${id}`
    if (!PROVIDER_ID.test(id)) throw fail(path, 'must be a lowercase id (letters, digits, - and _)')
    if (!isObject(entry)) throw fail(path, 'must be an object')
    const unknown = Object.keys(entry).find((key) => !KEYS.has(key))
    if (unknown !== undefined) throw fail(`${path}.${unknown}`, 'is not a known option')
    const issuer = entry.issuer
    if (issuer !== undefined && !isHttpUrl(issuer)) throw fail(`${path}.issuer`, 'must be an http(s) URL')
    if (issuer === undefined && !BUILT_IN_PROVIDERS[id])
      throw fail(`${path}.issuer`, 'is required for a provider that is not built in')
    const scopes = entry.scopes ?? []
    if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string' && /^\S+$/.test(scope)))
      throw fail(`${path}.scopes`, 'must be a list of scope names')
    const switches = {} as Record<(typeof SWITCHES)[number], boolean>
    for (const key of SWITCHES) {
      const flag = entry[key] ?? false
      if (typeof flag !== 'boolean') throw fail(`${path}.${key}`, 'must be true or false')
      switches[key] = flag
    }
    providers[id] = {
      issuer: typeof issuer === 'string' ? issuer.replace(/\/$/, '') : null,
      clientId: secretSource(entry.clientId, `${path}.clientId`, fail),
      clientSecret: secretSource(entry.clientSecret, `${path}.clientSecret`, fail),
      scopes: scopes as string[],
      ...switches,
      endpoints: endpointOverrides(id, entry, path, fail),
      tenantId: tenantOf(id, entry, path, fail),
      appleKey: appleKeyOf(id, entry, path, fail),
    }
  }
  return providers
}

const endpointOverrides = (
  id: string,
  entry: Record<string, unknown>,
  path: string,
  fail: Fail,
): EndpointOverrides => {
  const endpoints: EndpointOverrides = {}
  for (const key of ENDPOINT_KEYS) {
    const url = entry[key]
    if (url === undefined) continue
    if (BUILT_IN_PROVIDERS[id]?.endpoints.kind !== 'oauth2' || entry.issuer !== undefined)
      throw fail(
        `${path}.${key}`,
        'is for the OAuth 2.0 providers (github, discord); an OpenID one moves with issuer',
      )
    if (!isHttpUrl(url)) throw fail(`${path}.${key}`, 'must be an http(s) URL')
    if (key === 'emailsEndpoint' && id !== 'github') throw fail(`${path}.${key}`, 'is for GitHub only')
    endpoints[key] = url
  }
  return endpoints
}

const tenantOf = (id: string, entry: Record<string, unknown>, path: string, fail: Fail): string | null => {
  const tenant = entry.tenantId
  if (tenant === undefined) return null
  if (id !== 'microsoft') throw fail(`${path}.tenantId`, 'is for Microsoft only')
  if (typeof tenant !== 'string' || !TENANT.test(tenant))
    throw fail(`${path}.tenantId`, 'must be common, organizations, consumers, or a tenant id or domain')
  if (entry.issuer !== undefined) throw fail(`${path}.tenantId`, 'and issuer name the same thing: give one')
  return tenant
}

const APPLE_ID = /^[A-Z0-9]{10}$/

const appleKeyOf = (
  id: string,
  entry: Record<string, unknown>,
  path: string,
  fail: Fail,
): AppleKeySource | null => {
  const given = (['teamId', 'keyId', 'privateKey'] as const).filter((key) => entry[key] !== undefined)
  if (given.length === 0) return null
  if (id !== 'apple') throw fail(`${path}.${given[0]}`, 'is for Apple only')
  if (given.length !== 3) throw fail(path, 'needs teamId, keyId and privateKey together')
  const { teamId, keyId } = entry
  if (typeof teamId !== 'string' || !APPLE_ID.test(teamId))
    throw fail(`${path}.teamId`, 'must be the 10-character Apple team id')
  if (typeof keyId !== 'string' || !APPLE_ID.test(keyId))
    throw fail(`${path}.keyId`, 'must be the 10-character id of the Sign in with Apple key')
  if (entry.clientSecret !== undefined)
    throw fail(`${path}.clientSecret`, 'is signed from teamId, keyId and privateKey: give one or the other')
  const privateKey = secretSource(entry.privateKey, `${path}.privateKey`, fail)
  if (privateKey === null) throw fail(`${path}.privateKey`, 'must not be empty')
  return { teamId, keyId, privateKey }
}

const secretSource = (value: unknown, path: string, fail: Fail): SecretSource | null => {
  if (value === undefined || value === null || value === '') return null
  if (typeof value === 'string') return { value }
  if (isObject(value) && Object.keys(value).length === 1 && typeof value.env === 'string' && value.env !== '')
    return { env: value.env }
  throw fail(path, 'must be text or {"env": "VARIABLE_NAME"}')
}

/** Resolves secrets from the environment; an incomplete provider is left out with a warning. */
export const resolveSocialProviders = (
  providers: Record<string, SocialProviderFileOptions>,
  get: (name: string) => string | undefined,
  warnings: string[],
): Record<string, SocialProviderSettings> => {
  const resolved: Record<string, SocialProviderSettings> = {}
  const read = (source: SecretSource | null) =>
    source === null ? undefined : 'value' in source ? source.value : get(source.env)
  for (const [id, options] of Object.entries(providers)) {
    const { clientId: idSource, clientSecret: secretSource_, appleKey: keySource, ...rest } = options
    const clientId = read(idSource)
    const clientSecret = read(secretSource_)
    // A PEM key kept in one environment variable often has its line breaks written as \n.
    const privateKey = keySource ? read(keySource.privateKey)?.replaceAll('\\n', '\n') : undefined
    const appleKey = keySource && privateKey ? { ...keySource, privateKey } : null
    if (!clientId || (!clientSecret && !appleKey)) {
      // better-auth's warning, word for word; the provider is not offered.
      warnings.push(`Social provider ${id} is missing clientId or clientSecret`)
      continue
    }
    resolved[id] = {
      id,
      name: displayNameOf(id),
      ...rest,
      clientId,
      clientSecret: clientSecret ?? null,
      appleKey,
    }
  }
  return resolved
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isHttpUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}
