import { describe, expect, it } from 'vitest'
import { firstFactorAmr, oidcAmr, secondStepAmr } from './amr.js'

describe('how a session was signed in (amr)', () => {
  it('names the first factor, then the second step and mfa', () => {
    expect(firstFactorAmr('password')).toEqual(['pwd'])
    expect(firstFactorAmr('magic-link')).toEqual(['email'])
    expect(firstFactorAmr('email-otp')).toEqual(['email'])
    expect(secondStepAmr(['social'], 'totp')).toEqual(['social', 'totp', 'mfa'])
    expect(secondStepAmr(undefined, 'backup-code')).toEqual(['backup-code', 'mfa'])
  })

  it('maps to RFC 8176 values for an ID token', () => {
    expect(oidcAmr(['pwd', 'totp', 'mfa'])).toEqual(['pwd', 'otp', 'mfa'])
    expect(oidcAmr(['passkey'])).toEqual(['hwk', 'mfa'])
    expect(oidcAmr(['email', 'otp', 'mfa'])).toEqual(['email', 'otp', 'mfa'])
  })
})
