import { describe, expect, it } from 'vitest'
import { parseFeatureOptions } from './config-file.js'
import { resolveSocialProviders } from './social-providers.js'

const parse = (socialProviders: unknown) => parseFeatureOptions({ socialProviders }).socialProviders

describe('socialProviders in tessera.config.json', () => {
  it('reads a generic OpenID provider and a built-in one, secrets from the file or the environment', () => {
    const file = parse({
      acme: {
        issuer: 'https://id.acme.test/',
        clientId: 'id',
        clientSecret: 's',
        scopes: ['groups'],
        trusted: true,
      },
      github: { clientId: { env: 'GH_ID' }, clientSecret: { env: 'GH_SECRET' } },
    })
    const warnings: string[] = []
    const env: Record<string, string> = { GH_ID: 'gh', GH_SECRET: 'gh-secret' }
    const resolved = resolveSocialProviders(file, (name) => env[name], warnings)
    expect(resolved.acme).toEqual({
      id: 'acme',
      name: 'Acme',
      issuer: 'https://id.acme.test',
      clientId: 'id',
      clientSecret: 's',
      scopes: ['groups'],
      trusted: true,
      disableSignUp: false,
      disableImplicitSignUp: false,
      overrideUserInfoOnSignIn: false,
      endpoints: {},
      tenantId: null,
      appleKey: null,
    })
    expect(resolved.github).toMatchObject({
      name: 'GitHub',
      issuer: null,
      clientId: 'gh',
      clientSecret: 'gh-secret',
    })
    expect(warnings).toEqual([])
  })

  it("offers Apple with a signing key instead of a secret, the key's line breaks restored from the environment", () => {
    const file = parse({
      apple: {
        clientId: 'com.example.web',
        teamId: 'ABCDE12345',
        keyId: 'KEY1234567',
        privateKey: { env: 'APPLE_KEY' },
      },
    })
    const warnings: string[] = []
    const env: Record<string, string> = {
      APPLE_KEY: '-----BEGIN PRIVATE KEY-----\\nMIG\\n-----END PRIVATE KEY-----',
    }
    const resolved = resolveSocialProviders(file, (name) => env[name], warnings)
    expect(resolved.apple).toMatchObject({
      clientSecret: null,
      appleKey: {
        teamId: 'ABCDE12345',
        keyId: 'KEY1234567',
        privateKey: '-----BEGIN PRIVATE KEY-----\nMIG\n-----END PRIVATE KEY-----',
      },
    })
    expect(warnings).toEqual([])
    expect(resolveSocialProviders(file, () => undefined, warnings)).toEqual({})
    expect(warnings).toEqual(['Social provider apple is missing clientId or clientSecret'])
  })

  it('leaves out a provider whose id or secret is missing, with better-auth warning', () => {
    const warnings: string[] = []
    const resolved = resolveSocialProviders(
      parse({ google: { clientId: 'id', clientSecret: { env: 'UNSET' } } }),
      () => undefined,
      warnings,
    )
    expect(resolved).toEqual({})
    expect(warnings).toEqual(['Social provider google is missing clientId or clientSecret'])
  })

  it.each([
    [{ acme: { clientId: 'a', clientSecret: 'b' } }, 'socialProviders.acme.issuer is required'],
    [
      { google: { clientId: 'a', clientSecret: 'b', extra: 1 } },
      'socialProviders.google.extra is not a known option',
    ],
    [{ google: { scopes: 'openid' } }, 'socialProviders.google.scopes must be a list'],
    [{ google: { trusted: 'yes' } }, 'socialProviders.google.trusted must be true or false'],
    [{ google: { clientSecret: { name: 'X' } } }, 'socialProviders.google.clientSecret must be text or'],
    [{ acme: { issuer: 'ftp://x' } }, 'socialProviders.acme.issuer must be an http(s) URL'],
    [
      { google: { tokenEndpoint: 'https://x.test/t' } },
      'socialProviders.google.tokenEndpoint is for the OAuth 2.0',
    ],
    [
      { github: { tokenEndpoint: 'file:///t' } },
      'socialProviders.github.tokenEndpoint must be an http(s) URL',
    ],
    [
      { discord: { emailsEndpoint: 'https://x.test/e' } },
      'socialProviders.discord.emailsEndpoint is for GitHub only',
    ],
    [{ google: { tenantId: 'common' } }, 'socialProviders.google.tenantId is for Microsoft only'],
    [{ microsoft: { tenantId: '../x' } }, 'socialProviders.microsoft.tenantId must be common'],
    [{ google: { teamId: 'ABCDE12345' } }, 'socialProviders.google.teamId is for Apple only'],
    [
      { apple: { teamId: 'ABCDE12345', keyId: 'KEY1234567' } },
      'socialProviders.apple needs teamId, keyId and privateKey',
    ],
    [
      { apple: { teamId: 'abc', keyId: 'KEY1234567', privateKey: 'k' } },
      'socialProviders.apple.teamId must be',
    ],
    [
      { apple: { teamId: 'ABCDE12345', keyId: 'KEY1234567', privateKey: 'k', clientSecret: 's' } },
      'socialProviders.apple.clientSecret is signed from teamId',
    ],
    [{ google: { disableSignUp: 1 } }, 'socialProviders.google.disableSignUp must be true or false'],
  ])('refuses %j', (value, message) => {
    expect(() => parse(value)).toThrow(message)
  })
})

describe('account.accountLinking in tessera.config.json', () => {
  it("takes better-auth's defaults, and its options of the same names", () => {
    expect(parseFeatureOptions({}).account.accountLinking).toEqual({
      enabled: true,
      trustedProviders: [],
      allowDifferentEmails: false,
      allowUnlinkingAll: false,
      updateUserInfoOnLink: false,
      disableImplicitLinking: false,
      requireLocalEmailVerified: true,
    })
    const linking = parseFeatureOptions({
      account: {
        accountLinking: { enabled: false, trustedProviders: ['acme', 'acme'], allowUnlinkingAll: true },
      },
    }).account.accountLinking
    expect(linking).toMatchObject({ enabled: false, trustedProviders: ['acme'], allowUnlinkingAll: true })
  })

  it.each([
    [
      { accountLinking: { trustedProviders: 'acme' } },
      'account.accountLinking.trustedProviders must be a list',
    ],
    [{ accountLinking: { enabled: 'yes' } }, 'account.accountLinking.enabled'],
    [{ accountLinking: { updateAccountOnSignIn: true } }, 'account.accountLinking.updateAccountOnSignIn'],
  ])('refuses %j', (account, message) => {
    expect(() => parseFeatureOptions({ account })).toThrow(message)
  })
})
