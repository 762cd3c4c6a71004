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
    })
    expect(resolved.github).toMatchObject({
      name: 'GitHub',
      issuer: null,
      clientId: 'gh',
      clientSecret: 'gh-secret',
    })
    expect(warnings).toEqual([])
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
  ])('refuses %j', (value, message) => {
    expect(() => parse(value)).toThrow(message)
  })
})
