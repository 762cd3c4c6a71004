import { describe, expect, it } from 'vitest'
import { authenticationClaims } from './authentication-methods.js'

describe('the ID token’s amr and acr', () => {
  it('names a passkey sign-in as a hardware key, at the higher level', () => {
    expect(authenticationClaims(['passkey'])).toEqual({ amr: ['hwk'], acr: '2' })
  })

  it('names a password sign-in pwd, one factor', () => {
    expect(authenticationClaims(['pwd'])).toEqual({ amr: ['pwd'], acr: '1' })
  })

  it('adds mfa for two distinct factors, and counts each factor once', () => {
    expect(authenticationClaims(['pwd', 'totp', 'otp'])).toEqual({ amr: ['pwd', 'otp', 'mfa'], acr: '2' })
  })

  it('counts a mailed link, a provider or SSO as a factor, though RFC 8176 names none of them', () => {
    expect(authenticationClaims(['social', 'totp', 'mfa'])).toEqual({ amr: ['otp', 'mfa'], acr: '2' })
    expect(authenticationClaims(['email'])).toEqual({ amr: [], acr: '1' })
  })

  it('asserts nothing for a session that recorded nothing, or only names it does not know', () => {
    expect(authenticationClaims(undefined)).toEqual({ amr: [], acr: '0' })
    expect(authenticationClaims(['retina-of-a-cat'])).toEqual({ amr: [], acr: '0' })
  })
})
