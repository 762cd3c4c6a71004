import { describe, expect, it } from 'vitest'
import type { SocialProviderSettings } from '../config/social-providers.js'
import { definitionOf, issuerFor } from './oauth-client.js'
import { appleName, BUILT_IN_PROVIDERS, displayNameOf } from './provider-catalogue.js'

const profileOf = (id: string, claims: Record<string, unknown>) => {
  const provider = BUILT_IN_PROVIDERS[id]
  if (!provider) throw new Error(`no built-in provider ${id}`)
  return provider.profile(claims)
}

describe('built-in providers: how their answers become a profile', () => {
  it('GitHub: a numeric id as text, the login when there is no name, the verified flag the emails list gave', () => {
    expect(
      profileOf('github', {
        id: 583231,
        login: 'octocat',
        name: null,
        email: 'octo@example.com',
        email_verified: true,
        avatar_url: 'https://avatars.githubusercontent.com/u/583231',
      }),
    ).toEqual({
      id: '583231',
      email: 'octo@example.com',
      emailVerified: true,
      name: 'octocat',
      image: 'https://avatars.githubusercontent.com/u/583231',
    })
    expect(profileOf('github', { id: 1, login: 'x', email: 'x@example.com' }).emailVerified).toBe(false)
  })

  it("Discord: the global name, its verified flag, and the avatar's CDN address", () => {
    expect(
      profileOf('discord', {
        id: '80351110224678912',
        username: 'nelly',
        global_name: 'Nelly',
        email: 'nelly@example.com',
        verified: true,
        avatar: '8342729096ea3675442027381ff50dfe',
      }),
    ).toEqual({
      id: '80351110224678912',
      email: 'nelly@example.com',
      emailVerified: true,
      name: 'Nelly',
      image: 'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png',
    })
    expect(profileOf('discord', { id: '1', username: 'n', verified: false, avatar: null })).toMatchObject({
      name: 'n',
      emailVerified: false,
      image: null,
    })
  })

  it('Apple: an address it relays counts as verified; OpenID providers read email_verified', () => {
    expect(profileOf('apple', { sub: '001.abc', email: 'x@privaterelay.appleid.com' })).toMatchObject({
      id: '001.abc',
      emailVerified: true,
    })
    for (const id of ['google', 'gitlab', 'microsoft'])
      expect(
        profileOf(id, { sub: 's', email: 'a@example.com', email_verified: 'true', name: 'A', picture: 'p' }),
        id,
      ).toEqual({ id: 's', email: 'a@example.com', emailVerified: true, name: 'A', image: 'p' })
  })

  it('asks GitHub and Discord for the scopes that reveal the address, and names every built-in', () => {
    expect(BUILT_IN_PROVIDERS.github?.scopes).toEqual(['read:user', 'user:email'])
    expect(BUILT_IN_PROVIDERS.discord?.scopes).toEqual(['identify', 'email'])
    expect(['google', 'github', 'microsoft', 'apple', 'discord', 'gitlab'].map(displayNameOf)).toEqual([
      'Google',
      'GitHub',
      'Microsoft',
      'Apple',
      'Discord',
      'GitLab',
    ])
  })
})

describe("an id token's expected issuer", () => {
  const common = 'https://login.microsoftonline.com/{tenantid}/v2.0'
  const tid = '9188040d-6c67-4c5b-b112-36a304b66dad'

  it("is Microsoft's templated issuer with the token's own tenant", () => {
    expect(issuerFor(common, { tid })).toBe(`https://login.microsoftonline.com/${tid}/v2.0`)
  })

  it('stays as published otherwise (no template, or a tenant that is not a GUID)', () => {
    expect(issuerFor('https://accounts.google.com', { tid })).toBe('https://accounts.google.com')
    expect(issuerFor(common, { tid: '../evil' })).toBe(common)
    expect(issuerFor(common, {})).toBe(common)
  })
})

describe('a built-in provider with the configuration applied', () => {
  const settings = (id: string, more: Partial<SocialProviderSettings> = {}): SocialProviderSettings => ({
    id,
    name: displayNameOf(id),
    issuer: null,
    clientId: 'id',
    clientSecret: 'secret',
    scopes: [],
    trusted: false,
    disableSignUp: false,
    disableImplicitSignUp: false,
    overrideUserInfoOnSignIn: false,
    endpoints: {},
    tenantId: null,
    appleKey: null,
    ...more,
  })

  it("moves GitHub's endpoints where the configuration says, keeping the others", () => {
    expect(
      definitionOf(
        settings('github', { endpoints: { tokenEndpoint: 'https://ghe.example/login/oauth/access_token' } }),
      ).endpoints,
    ).toEqual({
      kind: 'oauth2',
      authorizationEndpoint: 'https://github.com/login/oauth/authorize',
      tokenEndpoint: 'https://ghe.example/login/oauth/access_token',
      userInfoEndpoint: 'https://api.github.com/user',
      emailsEndpoint: 'https://api.github.com/user/emails',
    })
  })

  it("finds Microsoft at its tenant's issuer, or the common one", () => {
    expect(definitionOf(settings('microsoft', { tenantId: 'contoso.onmicrosoft.com' })).endpoints).toEqual({
      kind: 'oidc',
      issuer: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0',
    })
    expect(definitionOf(settings('microsoft')).endpoints).toEqual({
      kind: 'oidc',
      issuer: 'https://login.microsoftonline.com/common/v2.0',
    })
  })

  it("keeps a built-in mapping and Apple's form POST when the issuer is moved", () => {
    const apple = definitionOf(settings('apple', { issuer: 'http://127.0.0.1:9/apple' }))
    expect(apple).toMatchObject({
      responseMode: 'form_post',
      endpoints: { kind: 'oidc', issuer: 'http://127.0.0.1:9/apple' },
    })
    expect(apple.profile({ sub: 'a', email: 'a@privaterelay.appleid.com' }).emailVerified).toBe(true)
    expect(definitionOf(settings('google')).responseMode).toBeUndefined()
  })
})

describe("Apple's name, sent once beside the code", () => {
  it('is the first and last name of its user field, when there is one', () => {
    const user = JSON.stringify({ name: { firstName: 'Ada', lastName: 'Lovelace' }, email: 'a@example.com' })
    expect(appleName({ user })).toBe('Ada Lovelace')
    expect(appleName({ user: JSON.stringify({ name: { firstName: 'Ada' } }) })).toBe('Ada')
    expect(appleName({})).toBeNull()
    expect(appleName({ user: 'not json' })).toBeNull()
    expect(appleName({ user: JSON.stringify({ name: 'Ada' }) })).toBeNull()
    expect(BUILT_IN_PROVIDERS.apple?.callbackName?.({ user })).toBe('Ada Lovelace')
    expect(BUILT_IN_PROVIDERS.google?.callbackName).toBeUndefined()
  })
})
