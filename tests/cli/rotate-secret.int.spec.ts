/// `tessera rotate-secret` after AUTH_SECRET changed (old one in AUTH_SECRET_PREVIOUS): every data
/// key ends up wrapped under the new secret and the JWT signing key sealed under the old one is
/// replaced, so a start with the new secret alone signs JWTs and opens every key.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeProtectedHeader } from 'jose'
import { sql } from 'kysely'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { rotateSecretCommand } from '../../app/cli/rotate-secret-command.js'
import { createTessera } from '../../app/server/tessera.js'
import { loadConfig } from '../../infra/config/config.js'
import { freshPostgres, type PostgresDatabase } from '../support/databases.js'
import { testClient } from '../support/tessera.js'

const OLD = 'the-secret-before-the-rotation-0123456789ab'
const NEW = 'the-secret-after-the-rotation-0123456789abc'

describe('tessera rotate-secret (postgres)', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'tessera-rotate-secret-'))
  let postgres: PostgresDatabase
  beforeAll(async () => {
    postgres = await freshPostgres()
  })
  afterAll(async () => {
    await postgres?.close()
    rmSync(cwd, { recursive: true, force: true })
  })

  const startWith = (env: Record<string, string>) =>
    createTessera({
      config: loadConfig({ NODE_ENV: 'test', DATABASE_URL: postgres.url, ...env }, { cwd }),
      logger: pino({ level: 'silent' }),
    })

  const jwtKid = async (tessera: Awaited<ReturnType<typeof startWith>>, cookie: string) => {
    const answer = await testClient(tessera).request('GET', '/token', undefined, { cookie })
    expect(answer.status).toBe(200)
    return decodeProtectedHeader((answer.json as { token: string }).token).kid
  }

  it('re-wraps every key and replaces the signing key, so the old secret can go', async () => {
    const before = await startWith({ AUTH_SECRET: OLD })
    const signUp = await testClient(before).request('POST', '/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: 'analytical-engine-1843',
    })
    expect(signUp.status).toBe(200)
    const cookie = String(signUp.headers['set-auth-token'] ?? '')
    const bearer = `better-auth.session_token=${encodeURIComponent(cookie)}`
    const oldKid = await jwtKid(before, bearer)
    await before.close()

    const saved = { ...process.env }
    const lines: string[] = []
    const errors: string[] = []
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => lines.push(String(line)))
    const error = vi.spyOn(console, 'error').mockImplementation((line: unknown) => errors.push(String(line)))
    try {
      Object.assign(process.env, {
        NODE_ENV: 'test',
        DATABASE_URL: postgres.url,
        AUTH_SECRET: NEW,
        AUTH_SECRET_PREVIOUS: OLD,
        DATA_DIR: join(cwd, 'data'),
      })
      delete process.env.BASE_URL
      delete process.env.TESSERA_CONFIG
      await rotateSecretCommand([])
    } finally {
      process.env = saved
      log.mockRestore()
      error.mockRestore()
    }
    const printed = lines.join('\n')
    expect(printed).toMatch(/Data keys: \d+ re-wrapped under the current AUTH_SECRET/)
    expect(printed).toMatch(/JWT signing key \S+ now signs/)
    expect(printed).toMatch(/Nothing stored needs a retired secret/)
    expect(errors).toEqual([])
    expect(process.exitCode ?? 0).toBe(0)

    const after = await startWith({ AUTH_SECRET: NEW })
    try {
      const { rows } = await sql<{ ids: string }>`
        select count(distinct wrapped_by)::text as ids from tessera_data_keys where wrapped_key is not null`.execute(
        after.database.db,
      )
      expect(rows[0]?.ids).toBe('1')
      // The session cookie was signed under the old secret: sign in again under the new one.
      const signIn = await testClient(after).request('POST', '/sign-in/email', {
        email: 'ada@example.com',
        password: 'analytical-engine-1843',
      })
      expect(signIn.status).toBe(200)
      const fresh = `better-auth.session_token=${encodeURIComponent(String(signIn.headers['set-auth-token']))}`
      const newKid = await jwtKid(after, fresh)
      expect(newKid).toBeDefined()
      expect(newKid).not.toBe(oldKid)
    } finally {
      await after.close()
    }
  })
})
