import { describe, expect, it } from 'vitest'
import { ConfigError } from './config-error.js'
import { parseFeatureOptions } from './config-file.js'

const passkey = (section: unknown) => parseFeatureOptions({ passkey: section }).passkey

describe('the passkey section of tessera.config.json', () => {
  it('defaults to BASE_URL (resolved later) and the name Tessera', () =>
    expect(parseFeatureOptions({}).passkey).toEqual({ rpID: null, rpName: 'Tessera', origin: null }))

  it("takes better-auth's option names; one origin or several", () => {
    expect(passkey({ rpID: 'example.com', rpName: 'Example', origin: 'https://app.example.com' })).toEqual({
      rpID: 'example.com',
      rpName: 'Example',
      origin: ['https://app.example.com'],
    })
    expect(passkey({ origin: ['https://a.example.com', 'http://localhost:5173'] }).origin).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ])
  })

  it('refuses an origin with a path or trailing slash, and an unknown key, naming it', () => {
    expect(() => passkey({ origin: 'https://app.example.com/' })).toThrow(/passkey\.origin/)
    expect(() => passkey({ origin: ['https://ok.example.com', 'nope'] })).toThrow(/passkey\.origin\[1\]/)
    expect(() => passkey({ rpId: 'example.com' })).toThrow(ConfigError)
    expect(() => passkey({ rpId: 'example.com' })).toThrow(/passkey\.rpId/)
  })
})
