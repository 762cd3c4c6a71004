import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.js'
import { parseFeatureOptions } from './config-file.js'

const made: string[] = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

const withFile = (content: string, name = 'tessera.config.json') => {
  const cwd = mkdtempSync(join(tmpdir(), 'tessera-config-file-'))
  made.push(cwd)
  mkdirSync(join(cwd, 'conf'))
  writeFileSync(join(cwd, name), content)
  return cwd
}

const messageOf = (json: unknown): string => {
  try {
    parseFeatureOptions(json)
  } catch (error) {
    if (error instanceof ConfigError) return error.message
    throw error
  }
  return 'no error'
}

describe('tessera.config.json', () => {
  it('overrides defaults option by option', () => {
    const cwd = withFile(
      JSON.stringify({
        emailAndPassword: { requireEmailVerification: true, minPasswordLength: 12 },
        session: { expiresIn: 3600, freshAge: 0 },
        user: { deleteUser: { immediate: true } },
        rateLimit: { max: 20 },
      }),
    )
    const config = loadConfig({}, { cwd })
    expect(config.emailAndPassword).toMatchObject({
      requireEmailVerification: true,
      minPasswordLength: 12,
      enabled: true,
    })
    expect(config.session).toEqual({ expiresIn: 3600, updateAge: 86_400, freshAge: 0 })
    expect(config.user).toEqual({
      deleteUser: { enabled: true, immediate: true },
      changeEmail: { enabled: true },
    })
    expect(config.rateLimit).toEqual({ enabled: false, window: 10, max: 20 })
  })

  it('is found through TESSERA_CONFIG, relative to the working directory', () => {
    const cwd = withFile('{"emailVerification":{"sendOnSignUp":true}}', 'conf/custom.json')
    const config = loadConfig({ TESSERA_CONFIG: 'conf/custom.json' }, { cwd })
    expect(config.emailVerification.sendOnSignUp).toBe(true)
  })

  it('must exist when TESSERA_CONFIG names it', () => {
    const cwd = withFile('{}')
    expect(() => loadConfig({ TESSERA_CONFIG: 'missing.json' }, { cwd })).toThrow(
      /missing\.json: cannot read/,
    )
  })

  it('must be JSON', () => {
    const cwd = withFile('{ session: 1 }')
    expect(() => loadConfig({}, { cwd })).toThrow(/tessera\.config\.json: not valid JSON/)
  })

  it.each([
    [[], 'tessera.config.json: the top level must be an object'],
    [{ sessions: {} }, 'tessera.config.json: sessions is not a known option'],
    [{ session: { expiresIn: 0 } }, 'tessera.config.json: session.expiresIn must be a positive integer'],
    [{ session: { expiresIn: '3600' } }, 'tessera.config.json: session.expiresIn must be a positive integer'],
    [{ session: { updateAge: -1 } }, 'tessera.config.json: session.updateAge must be a non-negative integer'],
    [{ session: { freshAge: 1.5 } }, 'tessera.config.json: session.freshAge must be a non-negative integer'],
    [{ session: { cookieCache: true } }, 'tessera.config.json: session.cookieCache is not a known option'],
    [{ session: null }, 'tessera.config.json: session must be an object'],
    [
      { emailAndPassword: { enabled: 'yes' } },
      'tessera.config.json: emailAndPassword.enabled must be true or false',
    ],
    [
      { emailAndPassword: { minPasswordLength: 20, maxPasswordLength: 10 } },
      'tessera.config.json: emailAndPassword.minPasswordLength must not exceed emailAndPassword.maxPasswordLength (10)',
    ],
    [
      { emailVerification: { expiresIn: null } },
      'tessera.config.json: emailVerification.expiresIn must be a positive integer',
    ],
    [{ user: { deleteUser: true } }, 'tessera.config.json: user.deleteUser must be an object'],
    [
      { user: { deleteUser: { soft: true } } },
      'tessera.config.json: user.deleteUser.soft is not a known option',
    ],
    [
      { user: { changeEmail: { enabled: 1 } } },
      'tessera.config.json: user.changeEmail.enabled must be true or false',
    ],
    [{ rateLimit: { window: 0 } }, 'tessera.config.json: rateLimit.window must be a positive integer'],
  ])('refuses %j', (json, message) => {
    expect(messageOf(json)).toBe(message)
  })
})

describe('tessera.config.json: jwt', () => {
  it('defaults to EdDSA, 15-minute tokens, manual rotation', () => {
    expect(parseFeatureOptions({}).jwt).toEqual({
      enabled: true,
      algorithm: 'EdDSA',
      rotationIntervalSeconds: null,
      lifetimeSeconds: 900,
    })
    expect(
      parseFeatureOptions({ jwt: { algorithm: 'PS256', rotationIntervalSeconds: 86_400, enabled: false } })
        .jwt,
    ).toEqual({ enabled: false, algorithm: 'PS256', rotationIntervalSeconds: 86_400, lifetimeSeconds: 900 })
    expect(
      parseFeatureOptions({ jwt: { rotationIntervalSeconds: null } }).jwt.rotationIntervalSeconds,
    ).toBeNull()
  })

  it.each([
    [
      { jwt: { algorithm: 'HS256' } },
      'tessera.config.json: jwt.algorithm must be one of "EdDSA", "ES256", "RS256", "PS256"',
    ],
    [
      { jwt: { rotationIntervalSeconds: 0 } },
      'tessera.config.json: jwt.rotationIntervalSeconds must be a positive integer or null',
    ],
    [
      { jwt: { lifetimeSeconds: '900' } },
      'tessera.config.json: jwt.lifetimeSeconds must be a positive integer',
    ],
    [{ jwt: { expiresIn: 900 } }, 'tessera.config.json: jwt.expiresIn is not a known option'],
  ])('refuses %j', (json, message) => {
    expect(messageOf(json)).toBe(message)
  })
})

describe('tessera.config.json: username', () => {
  it("defaults to better-auth's 3 to 30 characters", () => {
    expect(parseFeatureOptions({}).username).toEqual({ minUsernameLength: 3, maxUsernameLength: 30 })
    expect(parseFeatureOptions({ username: { minUsernameLength: 5 } }).username.minUsernameLength).toBe(5)
  })

  it.each([
    [
      { username: { minUsernameLength: 0 } },
      'tessera.config.json: username.minUsernameLength must be a positive integer',
    ],
    [
      { username: { minUsernameLength: 10, maxUsernameLength: 5 } },
      'tessera.config.json: username.minUsernameLength must not exceed username.maxUsernameLength (5)',
    ],
  ])('refuses %j', (json, message) => {
    expect(messageOf(json)).toBe(message)
  })
})

describe('admin options (better-auth admin plugin)', () => {
  it("defaults to better-auth's: admins by the admin role, one-hour impersonation, no ban expiry", () => {
    expect(parseFeatureOptions({}).admin).toEqual({
      defaultRole: 'user',
      adminRoles: ['admin'],
      adminUserIds: [],
      impersonationSessionDuration: 3600,
      allowImpersonatingAdmins: false,
      defaultBanReason: 'No reason',
      defaultBanExpiresIn: null,
      bannedUserMessage:
        'You have been banned from this application. Please contact support if you believe this is an error.',
    })
  })

  it.each([
    [
      { admin: { adminRoles: ['admin', 'superuser'] } },
      'tessera.config.json: admin.adminRoles names "superuser", which is not a role (admin, user)',
    ],
    [
      { admin: { adminUserIds: 'u1' } },
      'tessera.config.json: admin.adminUserIds must be a list of non-empty strings',
    ],
    [
      { admin: { impersonationSessionDuration: 0 } },
      'tessera.config.json: admin.impersonationSessionDuration must be a positive integer',
    ],
    [
      { admin: { defaultBanReason: ' ' } },
      'tessera.config.json: admin.defaultBanReason must be a non-empty string',
    ],
    [
      { admin: { defaultBanExpiresIn: -5 } },
      'tessera.config.json: admin.defaultBanExpiresIn must be a positive integer or null',
    ],
    [
      { admin: { defaultRole: 'member' } },
      'tessera.config.json: admin.defaultRole must be one of "admin", "user"',
    ],
  ])('refuses %j', (json, message) => {
    expect(messageOf(json)).toBe(message)
  })
})
