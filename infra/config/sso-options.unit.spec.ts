import { describe, expect, it } from 'vitest'
import { parseFeatureOptions } from './config-file.js'

const sso = (value: unknown) => parseFeatureOptions({ sso: value }).sso

describe('sso.saml options', () => {
  it('default to a 60 s skew (the plugin allows 5 min) and the plugin’s size limits', () => {
    expect(sso({}).saml).toEqual({ clockSkew: 60_000, maxResponseSize: 262_144, maxMetadataSize: 102_400 })
  })

  it('read the plugin’s names, clockSkew in milliseconds', () => {
    const saml = sso({ saml: { clockSkew: 0, maxResponseSize: 1024, maxMetadataSize: 2048 } }).saml
    expect(saml).toEqual({ clockSkew: 0, maxResponseSize: 1024, maxMetadataSize: 2048 })
  })

  it('refuse an unknown key and a size that is not a positive integer', () => {
    expect(() => sso({ saml: { allowIdpInitiated: true } })).toThrow(/allowIdpInitiated/)
    expect(() => sso({ saml: { maxResponseSize: 0 } })).toThrow(/sso\.saml\.maxResponseSize/)
    expect(() => sso({ saml: { clockSkew: -1 } })).toThrow(/sso\.saml\.clockSkew/)
  })
})
