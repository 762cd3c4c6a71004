import { describe, expect, it } from 'vitest'
import { firstFactorAmr, secondStepAmr } from './amr.js'

describe('how a session was signed in (amr)', () => {
  it('names the first factor, then the second step and mfa', () => {
    expect(firstFactorAmr('password')).toEqual(['pwd'])
    expect(firstFactorAmr('magic-link')).toEqual(['email'])
    expect(firstFactorAmr('email-otp')).toEqual(['email'])
    expect(secondStepAmr(['social'], 'totp')).toEqual(['social', 'totp', 'mfa'])
    expect(secondStepAmr(undefined, 'backup-code')).toEqual(['backup-code', 'mfa'])
  })
})
