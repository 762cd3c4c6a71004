import { describe, expect, it } from 'vitest'
import { signInMethodsOf } from './sign-in-methods.js'

describe('a session’s sign-in methods in words', () => {
  it('names each factor, the last after “and”, and leaves out mfa', () => {
    expect(signInMethodsOf(['pwd', 'totp', 'mfa'])).toBe('password and an authenticator app')
    expect(signInMethodsOf(['social', 'backup-code', 'mfa'])).toBe('a social account and a backup code')
    expect(signInMethodsOf(['passkey'])).toBe('a passkey')
    expect(signInMethodsOf(['email'])).toBe('a link or code by email')
  })

  it('says nothing for a session that did not record it', () => {
    expect(signInMethodsOf(null)).toBeNull()
    expect(signInMethodsOf([])).toBeNull()
  })
})
