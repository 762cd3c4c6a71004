import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, DEVELOPMENT_SECRET, type Env, loadConfig } from './config.js'

const SECRET = 'a-production-secret-of-32-chars!!'
const MAIL = 'smtp://mail.example.com:587'
const made: string[] = []
const emptyDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-config-'))
  made.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})
const load = (env: Env, cwd = emptyDir()) => loadConfig(env, { cwd })

const configError = (env: Env, cwd = emptyDir()): ConfigError => {
  try {
    load(env, cwd)
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError')
}

describe('defaults', () => {
  it('run on a laptop with nothing set', () => {
    const cwd = emptyDir()
    const config = load({}, cwd)
    expect(config).toMatchObject({
      production: false,
      port: 3000,
      host: '127.0.0.1',
      baseUrl: 'http://localhost:3000',
      baseOrigin: 'http://localhost:3000',
      basePath: '/api/auth',
      secureCookies: false,
      secret: DEVELOPMENT_SECRET,
      dataDir: join(cwd, 'data'),
      database: { kind: 'pglite', dataDir: join(cwd, 'data') },
      redisUrl: undefined,
      mail: { mailFrom: 'Tessera <no-reply@localhost>', smtpUrl: undefined, httpUrl: undefined },
      trustedOrigins: ['http://localhost:3000'],
      rateLimit: { enabled: false, window: 10, max: 100 },
      logLevel: 'info',
      emailAndPassword: {
        enabled: true,
        requireEmailVerification: false,
        minPasswordLength: 8,
        maxPasswordLength: 128,
        autoSignIn: true,
        rejectCommonPasswords: true,
      },
      emailVerification: { sendOnSignUp: false, autoSignInAfterVerification: false, expiresIn: 3600 },
      session: { expiresIn: 604_800, updateAge: 86_400, freshAge: 86_400 },
      user: { deleteUser: { enabled: true, immediate: false }, changeEmail: { enabled: true } },
    })
    expect(config.warnings.join('\n')).toMatch(/AUTH_SECRET is not set/)
  })

  it('is frozen all the way down', () => {
    const config = load({})
    expect(Object.isFrozen(config)).toBe(true)
    expect(Object.isFrozen(config.session)).toBe(true)
    expect(Object.isFrozen(config.user.deleteUser)).toBe(true)
    expect(Object.isFrozen(config.trustedOrigins)).toBe(true)
  })

  it('derives the base URL from PORT and treats empty variables as unset', () => {
    const config = load({ PORT: '4100', HOST: '', LOG_LEVEL: '  ' })
    expect(config.baseUrl).toBe('http://localhost:4100')
    expect(config.host).toBe('127.0.0.1')
    expect(config.logLevel).toBe('info')
  })
})

describe('variables', () => {
  it('reads every variable', () => {
    const config = load({
      NODE_ENV: 'production',
      AUTH_SECRET: SECRET,
      PORT: '8080',
      HOST: '0.0.0.0',
      BASE_URL: 'https://auth.example.com/',
      DATABASE_URL: 'postgresql://u:p@db:5432/tessera',
      DATA_DIR: '/var/lib/tessera',
      REDIS_URL: 'rediss://cache:6380',
      SMTP_URL: 'smtps://u:p@mail:465',
      MAIL_FROM: 'no-reply@example.com',
      RATE_LIMIT: 'off',
      EVENT_STORE: 'postgres',
      LOG_LEVEL: 'debug',
    })
    expect(config).toMatchObject({
      production: true,
      secret: SECRET,
      port: 8080,
      host: '0.0.0.0',
      baseUrl: 'https://auth.example.com',
      secureCookies: true,
      database: { kind: 'postgres', url: 'postgresql://u:p@db:5432/tessera', preparedStatements: true },
      dataDir: '/var/lib/tessera',
      redisUrl: 'rediss://cache:6380',
      mail: { mailFrom: 'no-reply@example.com', smtpUrl: 'smtps://u:p@mail:465' },
      rateLimit: { enabled: false },
      logLevel: 'debug',
      eventStore: { kind: 'sql' },
      warnings: [],
    })
  })

  it("takes a catching-up projector's share of a busy database as a whole percent, 5 unless told", () => {
    expect(load({}).consistency.projectorCatchUpShare).toBe(5)
    expect(load({ PROJECTOR_CATCH_UP_SHARE: '100' }).consistency.projectorCatchUpShare).toBe(100)
    for (const bad of ['0', '101', '2.5', 'half'])
      expect(() => load({ PROJECTOR_CATCH_UP_SHARE: bad })).toThrow(
        `PROJECTOR_CATCH_UP_SHARE must be a whole percent from 1 to 100 (got "${bad}")`,
      )
  })

  it('names prepared statements on PostgreSQL unless DATABASE_PREPARED_STATEMENTS=off', () => {
    const url = 'postgres://db/tessera'
    expect(load({ DATABASE_URL: url, DATABASE_PREPARED_STATEMENTS: 'OFF' }).database).toEqual({
      kind: 'postgres',
      url,
      preparedStatements: false,
    })
    expect(load({ DATABASE_URL: url, DATABASE_PREPARED_STATEMENTS: 'on' }).database).toMatchObject({
      preparedStatements: true,
    })
  })

  it('selects KurrentDB with EVENT_STORE=kurrentdb and its URL, and says the adapter is experimental', () => {
    const url = 'kurrentdb+discover://admin:changeit@events.internal:2113?tls=true'
    const config = load({ EVENT_STORE: 'kurrentdb', KURRENTDB_URL: url })
    expect(config.eventStore).toEqual({ kind: 'kurrentdb', url })
    expect(config.warnings.join('\n')).toMatch(/KurrentDB event store is experimental/)
    expect(config.warnings.join('\n')).not.toContain('changeit')
  })

  it('says so when KURRENTDB_URL is set without EVENT_STORE=kurrentdb, instead of ignoring it', () => {
    const config = load({ KURRENTDB_URL: 'kurrentdb://events:2113?tls=false' })
    expect(config.eventStore).toEqual({ kind: 'sql' })
    expect(config.warnings.join('\n')).toMatch(/KURRENTDB_URL is set but EVENT_STORE is not "kurrentdb"/)
  })

  it('keeps a base path and turns rate limiting on in production by default', () => {
    const config = load({
      NODE_ENV: 'production',
      AUTH_SECRET: SECRET,
      BASE_URL: 'https://example.com/auth/',
      SMTP_URL: MAIL,
    })
    expect(config.baseUrl).toBe('https://example.com/auth')
    expect(config.baseOrigin).toBe('https://example.com')
    expect(config.rateLimit.enabled).toBe(true)
  })

  it('takes an HTTP mail provider given both its URL and key', () => {
    const config = load({ MAIL_HTTP_URL: 'https://api.mail.example/send', MAIL_HTTP_API_KEY: 'k' })
    expect(config.mail).toMatchObject({ httpUrl: 'https://api.mail.example/send', httpApiKey: 'k' })
  })

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '65536' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ BASE_URL: 'localhost:3000' }, 'BASE_URL'],
    [{ BASE_URL: 'ftp://example.com' }, 'BASE_URL'],
    [{ BASE_URL: '/relative' }, 'BASE_URL'],
    [{ BASE_URL: 'https://example.com/?x=1' }, 'BASE_URL'],
    [{ DATABASE_URL: 'mysql://db/tessera' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [
      { DATABASE_URL: 'postgres://db/t', DATABASE_PREPARED_STATEMENTS: 'yes' },
      'DATABASE_PREPARED_STATEMENTS',
    ],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ MAIL_FROM: 'nobody' }, 'MAIL_FROM'],
    [{ MAIL_HTTP_URL: 'https://api.mail.example' }, 'MAIL_HTTP_API_KEY'],
    [{ MAIL_HTTP_API_KEY: 'k' }, 'MAIL_HTTP_URL'],
    [{ MAIL_HTTP_URL: 'mail.example', MAIL_HTTP_API_KEY: 'k' }, 'MAIL_HTTP_URL'],
    [
      { SMTP_URL: 'smtp://mail', MAIL_HTTP_URL: 'https://api.mail.example', MAIL_HTTP_API_KEY: 'k' },
      'SMTP_URL',
    ],
    [{ RATE_LIMIT: 'yes' }, 'RATE_LIMIT'],
    [{ TRUST_PROXY: 'the balancer' }, 'TRUST_PROXY'],
    [{ EVENT_STORE: 'mongo' }, 'EVENT_STORE'],
    [{ EVENT_STORE: 'kurrentdb' }, 'KURRENTDB_URL'],
    [{ EVENT_STORE: 'kurrentdb', KURRENTDB_URL: 'https://events:2113' }, 'KURRENTDB_URL'],
    [{ EVENT_STORE: 'kurrentdb', KURRENTDB_URL: 'kurrentdb://' }, 'KURRENTDB_URL'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
  ])('refuses %j, naming %s', (env, variable) => {
    const error = configError(env)
    expect(error.key).toBe(variable)
    expect(error.message).toContain(variable)
  })

  it('never echoes a URL that may hold a password', () => {
    expect(configError({ DATABASE_URL: 'mysql://admin:hunter2@db' }).message).not.toContain('hunter2')
    expect(configError({ BASE_URL: 'https://admin:hunter2@example.com' }).message).not.toContain('hunter2')
  })
})

describe('the secret in production', () => {
  it.each([
    [{}, /AUTH_SECRET is required/],
    [{ AUTH_SECRET: DEVELOPMENT_SECRET }, /AUTH_SECRET must not be the public development secret/],
    [{ AUTH_SECRET: 'x'.repeat(31) }, /AUTH_SECRET must be at least 32 characters/],
  ])('refuses %j', (env, message) => {
    expect(configError({ NODE_ENV: 'production', ...env }).message).toMatch(message)
  })

  it('accepts a 32-character secret', () => {
    expect(load({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), SMTP_URL: MAIL }).secret).toBe(
      'x'.repeat(32),
    )
  })

  it('only warns outside production', () => {
    expect(load({ AUTH_SECRET: 'short' }).warnings.join('\n')).toMatch(/shorter than 32/)
    expect(load({ AUTH_SECRET: DEVELOPMENT_SECRET }).warnings.join('\n')).toMatch(/PUBLIC development secret/)
  })

  it('refuses to start production with mail going to the log, one-time links and all', () => {
    const logged = configError({
      NODE_ENV: 'production',
      AUTH_SECRET: SECRET,
      BASE_URL: 'https://example.com',
    })
    expect(logged.key).toBe('SMTP_URL')
    expect(logged.message).toMatch(/SMTP_URL or MAIL_HTTP_URL is required when NODE_ENV=production/)
    expect(
      load({
        NODE_ENV: 'production',
        AUTH_SECRET: SECRET,
        MAIL_HTTP_URL: 'https://mail.example.com/send',
        MAIL_HTTP_API_KEY: 'k',
      }).production,
    ).toBe(true)
    const smtp = load({
      NODE_ENV: 'production',
      AUTH_SECRET: SECRET,
      BASE_URL: 'https://example.com',
      SMTP_URL: 'smtp://mail.example.com:587',
    })
    expect(smtp.warnings).toEqual([])
    expect(load({ AUTH_SECRET: SECRET }).warnings.join('\n')).not.toMatch(/printed to the log/)
  })

  it('warns when production cookies cannot be Secure', () => {
    const config = load({
      NODE_ENV: 'production',
      AUTH_SECRET: SECRET,
      BASE_URL: 'http://example.com',
      SMTP_URL: MAIL,
    })
    expect(config.warnings.join('\n')).toMatch(/not https/)
  })
})

describe('the .env file', () => {
  it('fills in what the environment does not set; the environment wins', () => {
    const cwd = emptyDir()
    writeFileSync(join(cwd, '.env'), 'PORT=5000\nHOST=0.0.0.0\nLOG_LEVEL=warn\n')
    const config = load({ PORT: '6000', LOG_LEVEL: undefined }, cwd)
    expect(config.port).toBe(6000)
    expect(config.host).toBe('0.0.0.0')
    expect(config.logLevel).toBe('warn')
  })

  it('is checked like the environment', () => {
    const cwd = emptyDir()
    writeFileSync(join(cwd, '.env'), 'PORT=http\n')
    expect(configError({}, cwd).key).toBe('PORT')
  })
})

describe('TRUSTED_ORIGINS', () => {
  it('adds origins and patterns after the base URL origin, normalised and without duplicates', () => {
    const config = load({
      BASE_URL: 'https://auth.example.com/base',
      TRUSTED_ORIGINS:
        ' https://App.Example.com , http://localhost:5173/,https://*.example.com,,https://auth.example.com',
    })
    expect(config.trustedOrigins).toEqual([
      'https://auth.example.com',
      'https://app.example.com',
      'http://localhost:5173',
      'https://*.example.com',
    ])
  })

  it('accepts a wildcard inside the leftmost label', () => {
    expect(load({ TRUSTED_ORIGINS: 'https://pr-*.preview.example.com' }).trustedOrigins).toContain(
      'https://pr-*.preview.example.com',
    )
  })

  it.each([
    'example.com',
    'https://example.com/path',
    'https://example.com?x=1',
    'https://user@example.com',
    'ftp://example.com',
    '*://example.com',
    'https://example.com:*',
    'https://*',
    'https://app.*.com',
    'not a url',
  ])('refuses %j, naming it', (entry) => {
    const error = configError({ TRUSTED_ORIGINS: `https://ok.example.com,${entry}` })
    expect(error.key).toBe('TRUSTED_ORIGINS')
    expect(error.message).toContain(`"${entry}"`)
  })
})

describe('TRUST_PROXY', () => {
  const trustProxy = (value?: string) => load(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy

  it('trusts no proxy unless told', () => expect(trustProxy()).toBe(false))
  it('takes true, a hop count, or addresses', () => {
    expect(trustProxy('true')).toBe(true)
    expect(trustProxy('2')).toBe(2)
    expect(trustProxy('10.0.0.0/8, 192.168.1.4')).toEqual(['10.0.0.0/8', '192.168.1.4'])
  })
})
