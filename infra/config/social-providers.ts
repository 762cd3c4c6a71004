/// `socialProviders` in tessera.config.json, keyed by provider id:
///   {"github": {"clientId": "…", "clientSecret": {"env": "GITHUB_CLIENT_SECRET"}},
///    "acme": {"issuer": "https://id.acme.test", "clientId": "…", "clientSecret": "…",
///             "scopes": ["groups"], "trusted": false}}
/// A built-in id (infra/oauth/provider-catalogue.ts) knows its endpoints; any other id is a generic
/// OpenID provider found by discovery from `issuer`. `clientId` and `clientSecret` are text or
/// `{"env": "NAME"}` (read from the environment, so secrets stay out of the file). A provider whose
/// id or secret is missing is not offered, with a warning at start.

import { BUILT_IN_PROVIDERS, displayNameOf } from '../oauth/provider-catalogue.js'

/** Text written in the file, or the name of an environment variable that holds it. */
export type SecretSource = { value: string } | { env: string }

export type SocialProviderFileOptions = {
  issuer: string | null
  clientId: SecretSource | null
  clientSecret: SecretSource | null
  scopes: string[]
  trusted: boolean
}

/** A provider ready to offer: secrets resolved. */
export type SocialProviderSettings = {
  id: string
  name: string
  /** Null for a built-in provider with fixed endpoints (or a built-in issuer). */
  issuer: string | null
  clientId: string
  clientSecret: string
  scopes: readonly string[]
  trusted: boolean
}

type Fail = (path: string, reason: string) => Error

const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/
const KEYS = new Set(['issuer', 'clientId', 'clientSecret', 'scopes', 'trusted'])

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
    const trusted = entry.trusted ?? false
    if (typeof trusted !== 'boolean') throw fail(`${path}.trusted`, 'must be true or false')
    providers[id] = {
      issuer: typeof issuer === 'string' ? issuer.replace(/\/$/, '') : null,
      clientId: secretSource(entry.clientId, `${path}.clientId`, fail),
      clientSecret: secretSource(entry.clientSecret, `${path}.clientSecret`, fail),
      scopes: scopes as string[],
      trusted,
    }
  }
  return providers
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
    const clientId = read(options.clientId)
    const clientSecret = read(options.clientSecret)
    if (!clientId || !clientSecret) {
      // better-auth's warning, word for word; the provider is not offered.
      warnings.push(`Social provider ${id} is missing clientId or clientSecret`)
      continue
    }
    resolved[id] = {
      id,
      name: displayNameOf(id),
      issuer: options.issuer,
      clientId,
      clientSecret,
      scopes: options.scopes,
      trusted: options.trusted,
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
