import { describe, expect, it } from 'vitest'
import { ConfigError, DEVELOPMENT_SECRET, loadConfig } from './config.js'
import { acceptedSecrets } from './secret.js'

const CURRENT = 'the-current-secret-0123456789abcdefghij'
const OLD = 'an-old-secret-0123456789abcdefghijklmno'
const OLDER = 'an-older-secret-0123456789abcdefghijklm'

describe('AUTH_SECRET_PREVIOUS', () => {
  it('lists the retired secrets in order, after the current one, without blanks or repeats', () => {
    const config = loadConfig(
      { AUTH_SECRET: CURRENT, AUTH_SECRET_PREVIOUS: ` ${OLD}, ,${OLDER},${OLD},${CURRENT}` },
      { cwd: '/nonexistent' },
    )
    expect(config.previousSecrets).toEqual([OLD, OLDER])
    expect(acceptedSecrets(config)).toEqual([CURRENT, OLD, OLDER])
  })

  it('is empty when unset', () => {
    expect(loadConfig({ AUTH_SECRET: CURRENT }, { cwd: '/nonexistent' }).previousSecrets).toEqual([])
  })

  it('may not hold the public development secret in production', () => {
    const env = {
      NODE_ENV: 'production',
      AUTH_SECRET: CURRENT,
      AUTH_SECRET_PREVIOUS: DEVELOPMENT_SECRET,
      BASE_URL: 'https://auth.example.com',
      SMTP_URL: 'smtp://mail.example.com',
    }
    expect(() => loadConfig(env, { cwd: '/nonexistent' })).toThrow(ConfigError)
    expect(() => loadConfig(env, { cwd: '/nonexistent' })).toThrow(/AUTH_SECRET_PREVIOUS/)
  })
})
