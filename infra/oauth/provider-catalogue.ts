/// The social providers Tessera knows by id: their display name, where their endpoints are (an
/// OpenID issuer to discover, or fixed OAuth 2.0 endpoints), the scopes they need, how the client
/// authenticates at the token endpoint, and how their profile maps to a Tessera user. A configured
/// id that is not here is a generic OpenID provider and must name its `issuer`.

/** A provider's user as Tessera needs it; `id` is the provider's own, stable subject. */
export type ProviderProfile = {
  id: string
  email: string | null
  emailVerified: boolean
  name: string
  image: string | null
}

export type ProviderEndpoints =
  | { kind: 'oidc'; issuer: string }
  | {
      kind: 'oauth2'
      authorizationEndpoint: string
      tokenEndpoint: string
      userInfoEndpoint: string
      /** Where the verified addresses are listed when the profile lacks them (GitHub). */
      emailsEndpoint?: string
    }

export type ProviderDefinition = {
  name: string
  endpoints: ProviderEndpoints
  /** Always requested; the configuration's `scopes` add to these. */
  scopes: readonly string[]
  /** How the client authenticates at the token endpoint. */
  tokenAuth: 'basic' | 'post'
  /** Apple answers by a form POST whenever the name or email is asked for, and refuses otherwise. */
  responseMode?: 'form_post'
  /** The name the provider sends beside the code, not in its profile (Apple, on the first sign-in only). */
  callbackName?: (params: Readonly<Record<string, string>>) => string | null
  /** Maps the user-info answer (or the id token's claims) to a profile. */
  profile: (claims: Record<string, unknown>) => ProviderProfile
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)
const subjectOf = (value: unknown): string =>
  typeof value === 'number' || typeof value === 'string' ? String(value) : ''

/** Standard OpenID Connect claims (sub, email, email_verified, name, picture). */
export const oidcProfile = (claims: Record<string, unknown>): ProviderProfile => {
  const email = text(claims.email)
  return {
    id: subjectOf(claims.sub),
    email,
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    name: text(claims.name) ?? text(claims.preferred_username) ?? email ?? '',
    image: text(claims.picture),
  }
}

/** Apple's `user` form field: `{"name": {"firstName", "lastName"}, "email"}`, sent once. */
export const appleName = (params: Readonly<Record<string, string>>): string | null => {
  let user: unknown
  try {
    user = JSON.parse(params.user ?? '')
  } catch {
    return null
  }
  const name = typeof user === 'object' && user !== null ? (user as { name?: unknown }).name : null
  if (typeof name !== 'object' || name === null) return null
  const { firstName, lastName } = name as Record<string, unknown>
  const full = [text(firstName), text(lastName)].filter(Boolean).join(' ').trim()
  return full === '' ? null : full.slice(0, 200)
}

const OIDC_SCOPES = ['openid', 'email', 'profile'] as const

export const BUILT_IN_PROVIDERS: Readonly<Record<string, ProviderDefinition>> = {
  google: {
    name: 'Google',
    endpoints: { kind: 'oidc', issuer: 'https://accounts.google.com' },
    scopes: OIDC_SCOPES,
    tokenAuth: 'post',
    profile: oidcProfile,
  },
  microsoft: {
    name: 'Microsoft',
    // The "common" tenant's discovery document names a templated issuer; consumer and work
    // accounts alike are served by it.
    endpoints: { kind: 'oidc', issuer: 'https://login.microsoftonline.com/common/v2.0' },
    scopes: [...OIDC_SCOPES, 'offline_access'],
    tokenAuth: 'post',
    profile: oidcProfile,
  },
  apple: {
    name: 'Apple',
    endpoints: { kind: 'oidc', issuer: 'https://appleid.apple.com' },
    scopes: ['openid', 'email', 'name'],
    tokenAuth: 'post',
    responseMode: 'form_post',
    callbackName: appleName,
    // Apple sends the name only once, in the form post; its addresses are verified by Apple.
    profile: (claims) => ({ ...oidcProfile(claims), emailVerified: text(claims.email) !== null }),
  },
  gitlab: {
    name: 'GitLab',
    endpoints: { kind: 'oidc', issuer: 'https://gitlab.com' },
    scopes: ['openid', 'email', 'profile', 'read_user'],
    tokenAuth: 'post',
    profile: oidcProfile,
  },
  github: {
    name: 'GitHub',
    endpoints: {
      kind: 'oauth2',
      authorizationEndpoint: 'https://github.com/login/oauth/authorize',
      tokenEndpoint: 'https://github.com/login/oauth/access_token',
      userInfoEndpoint: 'https://api.github.com/user',
      emailsEndpoint: 'https://api.github.com/user/emails',
    },
    scopes: ['read:user', 'user:email'],
    tokenAuth: 'post',
    profile: (claims) => ({
      id: subjectOf(claims.id),
      email: text(claims.email),
      // Filled from /user/emails (the primary address's `verified`) by the adapter.
      emailVerified: claims.email_verified === true,
      name: text(claims.name) ?? text(claims.login) ?? '',
      image: text(claims.avatar_url),
    }),
  },
  discord: {
    name: 'Discord',
    endpoints: {
      kind: 'oauth2',
      authorizationEndpoint: 'https://discord.com/oauth2/authorize',
      tokenEndpoint: 'https://discord.com/api/oauth2/token',
      userInfoEndpoint: 'https://discord.com/api/users/@me',
    },
    scopes: ['identify', 'email'],
    tokenAuth: 'basic',
    profile: (claims) => {
      const id = subjectOf(claims.id)
      const avatar = text(claims.avatar)
      return {
        id,
        email: text(claims.email),
        emailVerified: claims.verified === true,
        name: text(claims.global_name) ?? text(claims.username) ?? '',
        image: avatar ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png` : null,
      }
    },
  },
}

/** Display name of a generic provider: its id with a capital. */
export const displayNameOf = (id: string): string =>
  BUILT_IN_PROVIDERS[id]?.name ?? id.charAt(0).toUpperCase() + id.slice(1)
